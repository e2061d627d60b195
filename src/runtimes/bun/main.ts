/**
 * `npm run start:bun`: the same pipeline, handlers and storage modules on Bun, with Bun's own
 * SQLite and HTTP server. The store runs in process; the host port is the launcher's Node handler,
 * called directly.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { createApp } from '../../app';
import { configFrom } from '../../config';
import { ApiError } from '../../errors/api-error';
import { createHostHandler } from '../../host/node/host-handler';
import { hostClient } from '../../host/port';
import { startProcess } from '../../launcher/process-startup';
import { configVars } from '../../launcher/settings';
import { errorResponse } from '../../pipeline/respond';
import { ROUTES } from '../../routes/table';
import { startStore } from '../store-startup';
import { storeClient } from '../../../storage/dispatch';
import { bunSql } from '../../../storage/sql/bun-sql';

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

/**
 * The last resort, for whatever fails outside the pipeline's own envelope: the envelope still, never
 * Bun's error page (which shows paths and source lines). The cause goes to the console only.
 */
function internalError(error: unknown): Response {
  const requestId = crypto.randomUUID();
  console.error(`request ${requestId} failed outside the pipeline:`, error);
  return errorResponse(new ApiError('internal'), requestId, null);
}

startProcess(async ({ settings, version, storeDir, onStop }) => {
  const database = new Database(join(storeDir, 'lpa-bun.sqlite'), { create: true, strict: true });
  onStop(() => database.close());
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  const handleHost = createHostHandler(settings.dataRoot);
  const host = hostClient({ fetch: (input, init) => handleHost(new Request(input, init)) });
  // A timer does not outlive the process, so there is never a pending one to keep.
  const { invoke } = await startStore(bunSql(database), host, { wakeAt: (at, { run }) => void setTimeout(run, at - Date.now()) });

  const app = createApp(ROUTES, {
    config: configFrom(configVars(settings, version)),
    // Cloning stands in for the copy that Durable Object RPC makes.
    store: storeClient(async (family, method, args) => structuredClone(await invoke(family, method, structuredClone(args)))),
    host,
  });
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: settings.port,
    // Production mode: Bun's development error page is never served, whatever NODE_ENV says.
    development: false,
    fetch: (request, srv) =>
      app(withParsableUrl(request, settings.port), {
        clientIp: srv.requestIP(request)?.address ?? 'unknown',
        waitUntil: (promise) => void promise.catch((error) => console.error('background work failed:', error)),
      }),
    error: internalError,
  });
  onStop(() => void server.stop());
  return `Bun ${Bun.version}`;
});
