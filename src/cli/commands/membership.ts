import type { Command } from 'commander';
import { membership } from '../../contracts/membership';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

export function membershipCommand(program: Command): void {
  const command = program
    .command('membership')
    .alias('account')
    .description('the signed-in account of the browser and its membership (also `lpa account`, its former name)');
  withJson(command.command('status').description('server-confirmed membership status')).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(membership.status), options.json, keyValues);
    }),
  );
}
