import type { Command } from 'commander';
import { logs as logRoutes } from '../../contracts/logs';
import { action, withJson, type JsonOption } from '../args';
import { show, table } from '../output';

export function logsCommand(logs: Command): void {
  withJson(logs.command('list').description('every log file of every stream')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(logRoutes.list);
      show(answer, options.json, (a) => table(a.items, ['stream', 'file', 'size', 'modified_at']));
    }),
  );
  withJson(
    logs.command('show').description('the end of one log file, sanitized').argument('<stream>').argument('<file>'),
  ).action(
    action(async (client, stream: string, file: string, options: JsonOption) => {
      const answer = await client.api(logRoutes.tail, { params: { stream, file } });
      show(
        answer,
        options.json,
        (a) => `${a.text}${a.truncated ? `\n(last ${a.lines} lines; earlier lines cut)` : ''}`,
      );
    }),
  );
}
