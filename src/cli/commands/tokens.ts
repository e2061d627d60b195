import type { Command } from 'commander';
import { action, intBetween, withJson, type JsonOption } from '../args';
import { tokens as tokenRoutes } from '../../contracts/tokens';
import { keyValues, show, table } from '../output';

export function tokensCommand(tokens: Command): void {
  withJson(
    tokens
      .command('create')
      .description('issue a token; its secret is printed once')
      .requiredOption('--name <name>', 'a name for the token')
      .option('--scope <scope>', 'a scope (repeat for more)', (v: string, all: string[]) => [...all, v], [])
      .option('--admin', 'make it an admin session')
      .option('--expires-in-minutes <n>', 'lifetime in minutes', intBetween(1, 5_256_000)),
  ).action(
    action(
      async (
        client,
        options: JsonOption & { name: string; scope: string[]; admin?: boolean; expiresInMinutes?: number },
      ) => {
        const body = {
          name: options.name,
          scopes: options.scope,
          admin: options.admin,
          expires_in_minutes: options.expiresInMinutes,
        };
        show(await client.api(tokenRoutes.create, { body }), options.json, keyValues);
      },
    ),
  );
  withJson(tokens.command('list').description('list live tokens')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(tokenRoutes.list);
      show(answer, options.json, (a) => table(a.items, ['id', 'name', 'scopes', 'admin', 'expires_at']));
    }),
  );
  withJson(tokens.command('revoke').description('revoke a token').argument('<id>', 'the token id')).action(
    action(async (client, id: string, options: JsonOption) => {
      show(await client.api(tokenRoutes.revoke, { params: { id } }), options.json, () => `revoked ${id}`);
    }),
  );
}
