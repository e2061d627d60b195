import type { Command } from 'commander';
import { action, withJson, type JsonOption } from '../args';
import type { CoreStatus } from '../../../storage/system/schema';
import { keyValues, show } from '../output';

export function statusCommand(program: Command): void {
  withJson(program.command('status').description('show the core status of the service')).action(
    action(async (client, options: JsonOption) => {
      show(await client.call<CoreStatus>('GET', '/api/v1/system/status'), options.json, keyValues);
    }),
  );
}
