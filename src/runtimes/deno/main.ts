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
import type { UpgradeWebSocket } from '../../host/node/browsers/browser-runs';

/** The requests Deno.serve handed over for the copies the pipeline reads (`readable`). */
const handshakes = new WeakMap<Request, Request>();

/**
 * Deno closes a request it has upgraded to a WebSocket (its headers and body throw from then on),
 * yet the pipeline reads the request again once it has the answer (the api log line, the unread
 * body). So the pipeline is given a copy of a WebSocket handshake, and the upgrade takes the
 * request Deno.serve handed over. Any other request goes in as it came.
 */
function readable(request: Request): Request {
  if (request.headers.get('upgrade') === null) return request;
  // Not `new Request(request)`: that follows the request's abort signal, on which Deno prints a warning of its legacy behaviour.
  const copy = new Request(request.url, { method: request.method, headers: request.headers, body: request.body });
  handshakes.set(copy, request);
  return copy;
}

/** A run's DevTools client on Deno's server (src/host/node/browsers/browser-runs.ts, UpgradeWebSocket). */
const upgradeWebSocket: UpgradeWebSocket = (request, accept) => {
  let upgraded: Deno.WebSocketUpgrade;
  try {
    upgraded = Deno.upgradeWebSocket(handshakes.get(request) ?? request);
  } catch {
    // Deno throws for a request that is no valid WebSocket handshake.
    return null;
  }
  const { socket, response } = upgraded;
  // A binary frame's bytes as a text, as the launcher's `ws` and Bun hand them.
  socket.binaryType = 'arraybuffer';
  // Deno's socket cannot send before it is open, so the relay takes it then.
  socket.addEventListener('open', () => {
    const events = accept(socket);
    socket.addEventListener('message', ({ data }) =>
      events.message(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer)),
    );
    socket.addEventListener('close', () => events.closed());
  });
  return response;
};

startProcess(async (start) => {
  const database = new DatabaseSync(join(start.storeDir, 'lpa-deno.sqlite'));
  start.onStop(() => database.close());
  const serve = await inProcessService(nodeSql(database), start, upgradeWebSocket);
  let door: DenoFrontDoor | undefined;
  const server = Deno.serve(
    // onListen of its own: the start is announced once, by startProcess.
    { hostname: '127.0.0.1', port: 0, onListen: () => {}, onError: internalError },
    (request, info) => serve(readable(request), door?.clientOf(info.remoteAddr) ?? info.remoteAddr.hostname),
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
