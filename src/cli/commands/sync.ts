import type { Command } from 'commander';
import { action, withJson, type JsonOption } from '../args';
import { keyValues, show } from '../output';

export function syncCommand(program: Command): void {
  const sync = program.command('sync').description('the synchronizer');
  withJson(sync.command('status').description('whether it runs, its source and followers')).action(
    action(async (client, options: JsonOption) => {
      // The status schema is declared with its route (handlers/automation-synchronizer.ts); the CLI only prints it.
      show(await client.call<Record<string, unknown>>('GET', '/api/v1/automation/synchronizer'), options.json, keyValues);
    }),
  );
}
