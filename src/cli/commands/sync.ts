import type { Command } from 'commander';
import { synchronizer } from '../../contracts/synchronizer';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

export function syncCommand(sync: Command): void {
  withJson(sync.command('status').description('whether it runs, its source and followers')).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(synchronizer.status), options.json, keyValues);
    }),
  );
}
