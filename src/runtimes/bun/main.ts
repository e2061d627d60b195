/**
 * `npm run start:bun`: the same pipeline, handlers and storage modules on Bun, with Bun's own
 * SQLite and HTTP server. The store runs in process; the host port is the launcher's Node handler,
 * called directly.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { startProcess } from '../launcher/process-startup';
import { inProcessService, internalError } from '../in-process';
import { bunSql } from '../../../storage/sql/bun-sql';
import type { ClientEvents } from '../../host/node/browsers/devtools-relay';
import type { SocketAccept } from '../../host/node/browsers/browser-runs';

/** A run's DevTools client on Bun's server: the relay that takes it, and once open, where its messages go. */
interface DevtoolsSocket {
  accept: SocketAccept;
  events: ClientEvents | null;
}

/**
 * Bun builds `request.url` from the Host header as sent, and hands over Hosts that are no URL
 * authority (`a b`, `a@b`, `127.0.0.1:65536`, `[]:1`): `request.url` is then not a URL at all (for
 * some, only the path). The pipeline judges the Host header itself (421 `request.host_forbidden`),
 * so such a request goes in with a URL on the served address and its Host header as it came.
 */
function withParsableUrl(request: Request, port: number): Request {
  if (URL.canParse(request.url)) return request;
  const path = request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return new Request(`http://127.0.0.1:${port}${path.startsWith('/') ? path : '/'}`, request);
}

startProcess(async (start) => {
  const database = new Database(join(start.storeDir, 'lpa-bun.sqlite'), { create: true, strict: true });
  start.onStop(() => database.close());
  // Bun answers an upgrade it took itself, and sends nothing of the Response returned then: that one is for the api log line.
  const serve = await inProcessService(bunSql(database), start, (request, accept) =>
    server.upgrade(request, { data: { accept, events: null } }) ? new Response(null, { status: 101 }) : null,
  );
  // Declared after `serve`, whose upgrades are made on it: no request comes before it listens.
  const server = Bun.serve<DevtoolsSocket>({
    hostname: '127.0.0.1',
    port: start.settings.port,
    // Production mode: Bun's development error page is never served, whatever NODE_ENV says.
    development: false,
    // Seconds a connection may be idle (headers or body not coming) before Bun closes it; Bun's default, said here.
    idleTimeout: 10,
    fetch: (request, srv) =>
      serve(withParsableUrl(request, start.settings.port), srv.requestIP(request)?.address ?? 'unknown'),
    error: internalError,
    websocket: {
      // Bytes waiting to be sent to one client (Bun's default, said here, as docs/runs.md names it).
      backpressureLimit: 16 * 1024 * 1024,
      // A DevTools client that misses a message is lost, so one too slow to take them is closed instead (Bun would drop them).
      closeOnBackpressureLimit: true,
      open: (ws) => {
        ws.data.events = ws.data.accept(ws);
      },
      message: (ws, message) => ws.data.events?.message(String(message)),
      close: (ws) => ws.data.events?.closed(),
    },
  });
  start.onStop(() => void server.stop());
  return `Bun ${Bun.version}`;
});
