import type { Command } from 'commander';
import type { NewShare, ShareImportRequest } from '../../../storage/shares/schema';
import { shares as shareRoutes } from '../../contracts/shares';
import { action, intBetween, readText, repeated, withJson, type JsonOption } from '../args';
import { keyValues, show, table } from '../output';

export function sharesCommand(shares: Command): void {
  withJson(shares.command('list').description('shares that are not revoked (never their codes)')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(shareRoutes.list);
      show(answer, options.json, (a) => table(a.items, ['id', 'name', 'uses', 'max_uses', 'expires_at', 'size']));
    }),
  );
  withJson(
    shares
      .command('create')
      .description('share flows; the code is printed once')
      .requiredOption('--flow <id>', 'a flow to share (repeat for more)', repeated)
      .requiredOption('--name <name>', 'a name for the share')
      .requiredOption('--expires-in-minutes <n>', 'lifetime, 1..43200', intBetween(1, 43_200))
      .requiredOption('--max-uses <n>', 'how often it may be redeemed, 1..1000', intBetween(1, 1000))
      .option('--include-secrets', 'include protected values (needs secrets:read)'),
  ).action(
    action(
      async (
        client,
        options: JsonOption & {
          flow: string[];
          name: string;
          expiresInMinutes: number;
          maxUses: number;
          includeSecrets?: boolean;
        },
      ) => {
        const body: NewShare = {
          ids: options.flow,
          name: options.name,
          expires_in_minutes: options.expiresInMinutes,
          max_uses: options.maxUses,
          include_secrets: options.includeSecrets,
        };
        show(await client.api(shareRoutes.create, { body }), options.json, keyValues);
      },
    ),
  );
  withJson(shares.command('revoke').description('revoke a share: its code stops working').argument('<id>')).action(
    action(async (client, id: string, options: JsonOption) => {
      await client.api(shareRoutes.revoke, { params: { id } });
      show({ ok: true }, options.json, () => `revoked ${id}`);
    }),
  );
  // The code is a credential: it comes from a file or standard input, not from the process list.
  withJson(
    shares
      .command('redeem')
      .description('redeem a share code (one use) for a preview and an import ticket')
      .requiredOption('--code-file <path>', 'the share code ("-" for standard input)'),
  ).action(
    action(async (client, options: JsonOption & { codeFile: string }) => {
      const body = { code: readText(options.codeFile).trim() };
      const answer = await client.api(shareRoutes.redeem, { body });
      show(
        answer,
        options.json,
        (a) => `ticket: ${a.ticket}\n${table(a.items, ['id', 'name', 'steps', 'missing_values', 'dependencies'])}`,
      );
    }),
  );
  withJson(
    shares
      .command('import')
      .description('import chosen flows of a redeemed share')
      .requiredOption('--ticket <ticket>', 'the ticket redeem gave')
      .requiredOption('--id <id>', 'a flow of the preview (repeat for more)', repeated),
  ).action(
    action(async (client, options: JsonOption & { ticket: string; id: string[] }) => {
      const body: ShareImportRequest = { ticket: options.ticket, ids: options.id };
      const answer = await client.api(shareRoutes.import, { body });
      show(answer, options.json, (a) => table(a.items, ['id', 'name', 'is_template']));
    }),
  );
}
