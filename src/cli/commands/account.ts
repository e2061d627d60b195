import type { Command } from 'commander';
import type { AccountStatus } from '../../../storage/membership/schema';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

export function accountCommand(program: Command): void {
  const account = program.command('account').description('the signed-in account of the browser');
  withJson(account.command('status').description('server-confirmed membership status')).action(
    action(async (client, options: JsonOption) => {
      show(await client.call<AccountStatus>('GET', '/api/v1/account/status'), options.json, keyValues);
    }),
  );
}
