import type { Command } from 'commander';
import { synchronizer } from '../../contracts/synchronizer';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

export function syncCommand(program: Command): void {
  const sync = program.command('sync').description('the synchronizer');
  withJson(sync.command('status').description('whether it runs, its source and followers')).action(
    action(async (client, options: JsonOption) => {
      show(await client.api(synchronizer.status), options.json, keyValues);
    }),
  );
}
