import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { action, intBetween, withJson, type JsonOption } from '../args';
import type { queryInt } from '../../shared/schemas/query';
import { AuditCategory } from '../../../storage/audit/actions';
import { ACTOR_TYPES } from '../../../storage/audit/entry';
import { AUDIT_FILTERS, AuditListQuery } from '../../../storage/audit/filters';
import { AuditCheckpoint, AuditResult, ExportFormat } from '../../../storage/audit/schema';
import { audit as auditRoutes } from '../../contracts/audit';
import { verifyJsonlExport } from '../../../storage/audit/verify-export';
import { keyValues, show, table } from '../output';
import { progress, whileWaiting } from '../progress';

type FilterName = keyof typeof AUDIT_FILTERS;

/** `a, b or c`. */
const oneOf = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/** How each filter reads on the command line: its value's name and its help. */
const FILTER_HELP: Record<FilterName, [value: string, help: string]> = {
  category: ['<category>', oneOf(AuditCategory.options)],
  from: ['<ms>', 'from this time (epoch ms)'],
  to: ['<ms>', 'up to this time (epoch ms)'],
  action: ['<action>', 'an action, e.g. globals.write'],
  source: ['<source>', 'api, cli, system…'],
  actor_type: ['<type>', oneOf(ACTOR_TYPES)],
  entity_id: ['<id>', 'the entity id'],
  entity_no: ['<n>', "the profile's serial number"],
  result: ['<result>', oneOf(AuditResult.options)],
  search: ['<text>', 'free text'],
};

/** The key commander gives an option's value: `actor_type` is `--actor-type`, read as `actorType`. */
const optionKey = (name: string) => name.replace(/_(.)/g, (_, c: string) => c.toUpperCase());

type QueryInt = ReturnType<typeof queryInt>;
const isQueryInt = (field: z.ZodType): field is QueryInt =>
  field instanceof z.ZodPipe && field.out instanceof z.ZodNumber;
/** An integer parameter's bounds, read from its schema, so that the CLI refuses what the service would. */
const boundsOf = (field: QueryInt) => [field.out.minValue ?? 0, field.out.maxValue ?? Number.MAX_SAFE_INTEGER] as const;

/** The service's audit filters, shared by `list` and `export`; the service checks the bounds of the text ones. */
function withFilters(command: Command): Command {
  for (const [name, field] of Object.entries(AUDIT_FILTERS)) {
    const [value, help] = FILTER_HELP[name as FilterName];
    const flags = `--${name.replaceAll('_', '-')} ${value}`;
    const inner = field.unwrap();
    if (isQueryInt(inner)) command.option(flags, help, intBetween(...boundsOf(inner)));
    else command.option(flags, help);
  }
  return command;
}

type Filters = Record<string, string | number | undefined>;

function filterQuery(options: Filters): Filters {
  return Object.fromEntries(Object.keys(AUDIT_FILTERS).map((name) => [name, options[optionKey(name)]]));
}

const LIMIT = boundsOf(AuditListQuery.shape.limit.unwrap());
const BEFORE_SEQ = boundsOf(AuditListQuery.shape.before_seq.unwrap());

export function auditCommand(audit: Command): void {
  withJson(
    withFilters(audit.command('list').description('entries, newest first'))
      .option('--limit <n>', `entries per page, ${LIMIT.join('..')}`, intBetween(...LIMIT), 50)
      .option('--before-seq <seq>', 'page onward from here', intBetween(...BEFORE_SEQ)),
  ).action(
    action(async (client, options: JsonOption & Filters & { limit: number; beforeSeq?: number }) => {
      const answer = await client.api(auditRoutes.list, {
        query: { ...filterQuery(options), limit: options.limit, before_seq: options.beforeSeq },
      });
      show(answer, options.json, (a) => {
        const more = a.next_before_seq ? `\nmore: --before-seq ${a.next_before_seq}` : '';
        return table(a.items, ['seq', 'ts', 'actor_label', 'action', 'result', 'entity_id', 'error_code']) + more;
      });
    }),
  );
  withJson(audit.command('verify').description('check the hash chain and the daily anchors')).action(
    action(async (client, options: JsonOption) => {
      const answer = await whileWaiting('verifying the audit chain', client.api(auditRoutes.verify));
      show(answer, options.json, (a) => keyValues(a));
      if (!answer.ok) process.exitCode = 1;
    }),
  );
  withJson(
    withFilters(audit.command('export').description('write an export file (CSV or JSONL)'))
      .requiredOption('--format <format>', oneOf(ExportFormat.options))
      .option('--out <file>', 'where to write it (default: the name the service gives)'),
  ).action(
    action(async (client, options: JsonOption & Filters & { format: string; out?: string }) => {
      const bar = progress('export', 'KiB');
      const answer = await client.download(
        auditRoutes.export,
        { query: { ...filterQuery(options), format: options.format } },
        (received, total) =>
          bar.update(Math.ceil(received / 1024), total === null ? undefined : Math.ceil(total / 1024)),
      );
      bar.stop();
      const file = options.out ?? answer.file_name;
      writeFileSync(file, Buffer.from(answer.content_base64, 'base64'));
      show({ file, count: answer.count }, options.json, (a) => `wrote ${a.count} entries to ${a.file}`);
    }),
  );
  withJson(
    audit
      .command('checkpoint')
      .description('save the signed head of the chain, to prove later that nothing before it was rewritten')
      .option('--out <file>', 'where to write it (default: print it)'),
  ).action(
    action(async (client, options: JsonOption & { out?: string }) => {
      const answer = await client.api(auditRoutes.checkpoint);
      if (!options.out) return show(answer, options.json, (a) => keyValues(a));
      writeFileSync(options.out, `${JSON.stringify(answer, null, 2)}\n`);
      show(
        { file: options.out, seq: answer.seq },
        options.json,
        (a) => `wrote the checkpoint at seq ${a.seq} to ${a.file}`,
      );
    }),
  );
  withJson(
    audit
      .command('public-key')
      .description('the Ed25519 public key that verifies anchors and checkpoints (PEM)')
      .option('--out <file>', 'where to write the PEM (default: print it)'),
  ).action(
    action(async (client, options: JsonOption & { out?: string }) => {
      const answer = await client.api(auditRoutes.publicKey);
      if (options.out) writeFileSync(options.out, answer.public_key_pem);
      show(answer, options.json, (a) =>
        options.out ? `wrote key ${a.key_id} to ${options.out}` : a.public_key_pem.trimEnd(),
      );
    }),
  );
  // Offline: needs neither the service nor a token, only the file, the public key and a checkpoint.
  withJson(
    audit
      .command('verify-file')
      .description(
        'verify a JSONL export offline: hash chain, links and order; with a public key the anchor signatures; with a checkpoint that the file reaches it',
      )
      .argument('<file>')
      .option(
        '--public-key <pem>',
        "the public key (lpa audit public-key --out): accept only what it signed: every line as the store wrote it, the signed head, every finished day's anchor, no gap",
      )
      .option('--checkpoint <file>', 'a checkpoint saved earlier (lpa audit checkpoint --out); needs --public-key'),
  ).action((file: string, options: JsonOption & { publicKey?: string; checkpoint?: string }) => {
    const read = (path: string) => {
      try {
        return readFileSync(path);
      } catch (error) {
        process.stderr.write(`error: cli.file_unreadable: ${(error as Error).message}\n`);
        process.exitCode = 1;
        return null;
      }
    };
    if (options.checkpoint && !options.publicKey) {
      process.stderr.write('error: --checkpoint needs --public-key\n');
      process.exitCode = 2;
      return;
    }
    // The export as bytes: the check decides whether they are UTF-8.
    const exported = read(file);
    const publicKeyPem = options.publicKey ? (read(options.publicKey)?.toString('utf8') ?? null) : null;
    const checkpointText = options.checkpoint ? (read(options.checkpoint)?.toString('utf8') ?? null) : null;
    if (
      exported === null ||
      (options.publicKey && publicKeyPem === null) ||
      (options.checkpoint && checkpointText === null)
    )
      return;
    let checkpoint: AuditCheckpoint | null = null;
    if (checkpointText !== null) {
      try {
        checkpoint = AuditCheckpoint.parse(JSON.parse(checkpointText));
      } catch {
        process.stderr.write(
          `error: cli.checkpoint_invalid: ${options.checkpoint} is not a checkpoint (lpa audit checkpoint --out)\n`,
        );
        process.exitCode = 1;
        return;
      }
    }
    const result = verifyJsonlExport(exported, { publicKeyPem, checkpoint });
    show(result, options.json, (r) => keyValues({ ...r }));
    if (!result.ok) process.exitCode = 1;
  });
}
