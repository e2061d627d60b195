/**
 * `npm run start:deno`: the same pipeline, handlers and storage modules on Deno, with `node:sqlite`
 * and Deno's HTTP server. It runs with every permission (`-A`): with narrower read permissions Deno
 * resolves symbolic links before it opens a file, which defeats the host port's `O_NOFOLLOW`.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { startProcess } from '../launcher/process-startup';
import { inProcessService, internalError } from '../in-process';
import { nodeSql } from '../../../storage/sql/node-sql';

startProcess(async (start) => {
  const database = new DatabaseSync(join(start.storeDir, 'lpa-deno.sqlite'));
  start.onStop(() => database.close());
  const serve = await inProcessService(nodeSql(database), start);
  const server = Deno.serve(
    // onListen of its own: the start is announced once, by startProcess.
    { hostname: '127.0.0.1', port: start.settings.port, onListen: () => {}, onError: internalError },
    (request, info) => serve(request, info.remoteAddr.hostname),
  );
  start.onStop(() => server.shutdown());
  return `Deno ${Deno.version.deno}`;
});
