import type { Command } from 'commander';
import { action, withJson, type JsonOption } from '../args';
import { system } from '../../contracts/system';
import { keyValues, show } from '../output';

export function statusCommand(program: Command): void {
  withJson(program.command('status').description('show the core status of the service')).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(system.status), options.json, keyValues);
    }),
  );
}
