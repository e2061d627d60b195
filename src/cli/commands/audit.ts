import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { action, intBetween, withJson, type JsonOption } from '../args';
import type { Query } from '../client';
import { verifyJsonlExport } from '../../../storage/audit/verify-export';
import { keyValues, show, table } from '../output';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** The spec's audit filters, shared by `list` and `export`; the service checks their bounds. */
function withFilters(command: Command): Command {
  return command
    .option('--category <category>', 'account, profile, startup, proxy or team')
    .option('--from <ms>', 'from this time (epoch ms)', intBetween(0, MAX_INT))
    .option('--to <ms>', 'up to this time (epoch ms)', intBetween(0, MAX_INT))
    .option('--action <action>', 'an action, e.g. globals.write')
    .option('--source <source>', 'api, cli, system…')
    .option('--actor-type <type>', 'token, admin, system or anonymous')
    .option('--entity-id <id>', 'the entity id')
    .option('--entity-no <n>', "the profile's serial number", intBetween(1, MAX_INT))
    .option('--result <result>', 'ok, denied or error')
    .option('--search <text>', 'free text');
}

type Filters = Record<string, string | number | undefined>;

function filterQuery(o: Filters): Query {
  return {
    category: o.category, from: o.from, to: o.to, action: o.action, source: o.source, actor_type: o.actorType,
    entity_id: o.entityId, entity_no: o.entityNo, result: o.result, search: o.search,
  };
}

export function auditCommand(program: Command): void {
  const audit = program.command('audit').description('the tamper-evident audit log');
  withJson(
    withFilters(audit.command('list').description('entries, newest first'))
      .option('--limit <n>', 'entries per page, 1..1000', intBetween(1, 1000), 50)
      .option('--before-seq <seq>', 'page onward from here', intBetween(1, MAX_INT)),
  ).action(
    action(async (client, options: JsonOption & Filters & { limit: number; beforeSeq?: number }) => {
      const answer = await client.call<{ items: Record<string, unknown>[]; next_before_seq: number | null }>('GET', '/api/v1/audit', {
        query: { ...filterQuery(options), limit: options.limit, before_seq: options.beforeSeq },
      });
      show(answer, options.json, (a) => {
        const rows = a.items.map((e) => ({ ...e, ts: new Date(e.ts as number).toISOString() }));
        const more = a.next_before_seq ? `\nmore: --before-seq ${a.next_before_seq}` : '';
        return table(rows, ['seq', 'ts', 'actor_label', 'action', 'result', 'entity_id', 'error_code']) + more;
      });
    }),
  );
  withJson(audit.command('verify').description('check the hash chain and the daily anchors')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.call<{ ok: boolean }>('GET', '/api/v1/audit/verify');
      show(answer, options.json, (a) => keyValues(a));
      if (!answer.ok) process.exitCode = 1;
    }),
  );
  withJson(
    withFilters(audit.command('export').description('write an export file (CSV or JSONL)'))
      .requiredOption('--format <format>', 'csv or jsonl')
      .option('--out <file>', 'where to write it (default: the name the service gives)'),
  ).action(
    action(async (client, options: JsonOption & Filters & { format: string; out?: string }) => {
      const kib = (bytes: number) => (bytes / 1024).toFixed(0);
      const raw = await client.download('/api/v1/audit/export', { ...filterQuery(options), format: options.format }, (received, total) => {
        // Live progress where someone watches, or when the export is large enough to take a while.
        if (process.stderr.isTTY || total === null || total > 1024 * 1024) {
          process.stderr.write(`\rreceived ${kib(received)} KiB${total ? ` of ${kib(total)} KiB` : ''}`);
        }
      });
      process.stderr.write(`\rreceived ${kib(raw.length)} KiB in total\n`);
      const answer = JSON.parse(raw.toString('utf8')) as { file_name: string; count: number; content_base64: string };
      const file = options.out ?? answer.file_name;
      writeFileSync(file, Buffer.from(answer.content_base64, 'base64'));
      show({ file, count: answer.count }, options.json, (a) => `wrote ${a.count} entries to ${a.file}`);
    }),
  );
  // Offline: needs neither the service nor a token, only the file and the chain it carries.
  withJson(
    audit.command('verify-file').description('verify a JSONL export offline: hash chain, links and order of its lines').argument('<file>'),
  ).action((file: string, options: JsonOption) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      process.stderr.write(`error: cli.file_unreadable: ${(error as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    const result = verifyJsonlExport(text);
    show(result, options.json, (r) => keyValues({ ...r }));
    if (!result.ok) process.exitCode = 1;
  });
}
