import type { Command } from 'commander';
import { action, withJson, type JsonOption } from '../args';
import { system } from '../../contracts/system';
import { keyValues, show } from '../output';

export function statusCommand(status: Command): void {
  withJson(status).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(system.status), options.json, keyValues);
    }),
  );
}
