import type { Command } from 'commander';
import { membership } from '../../contracts/membership';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

export function membershipCommand(command: Command): void {
  withJson(command.command('status').description('server-confirmed membership status')).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(membership.status), options.json, keyValues);
    }),
  );
}
