/**
 * `npm run start:deno`: the same pipeline, handlers and storage modules on Deno, with `node:sqlite`
 * and Deno's HTTP server. It runs with every permission (`-A`): with narrower read permissions Deno
 * resolves symbolic links before it opens a file, which defeats the host port's `O_NOFOLLOW`.
 * Deno.serve takes no cap on connections and no header timeout, so it listens on a private port
 * behind the front door (./front-door.ts), which holds the public one.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { startProcess } from '../launcher/process-startup';
import { inProcessService, internalError } from '../in-process';
import { nodeSql } from '../../../storage/sql/node-sql';
import { openDenoFrontDoor, type DenoFrontDoor } from './front-door';
import { connectionCap } from '../front/connection-cap';

startProcess(async (start) => {
  const database = new DatabaseSync(join(start.storeDir, 'lpa-deno.sqlite'));
  start.onStop(() => database.close());
  const serve = await inProcessService(nodeSql(database), start);
  let door: DenoFrontDoor | undefined;
  const server = Deno.serve(
    // onListen of its own: the start is announced once, by startProcess.
    { hostname: '127.0.0.1', port: 0, onListen: () => {}, onError: internalError },
    (request, info) => serve(request, door?.clientOf(info.remoteAddr) ?? info.remoteAddr.hostname),
  );
  start.onStop(() => server.shutdown());
  // Each client connection costs this process three descriptors: the client's, and both ends of the pipe to Deno.serve.
  door = openDenoFrontDoor({
    port: start.settings.port,
    upstreamPort: server.addr.port,
    maxConnections: connectionCap(3),
  });
  start.onStop(() => door?.close());
  return `Deno ${Deno.version.deno}`;
});
