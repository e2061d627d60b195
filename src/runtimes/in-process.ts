import { configFrom } from '../shared/config';
import { ApiError } from '../shared/errors/api-error';
import { browserRuns, nodeHost } from '../host/node/node-host';
import type { UpgradeWebSocket } from '../host/node/browsers/browser-runs';
import type { ProcessStart } from './launcher/process-startup';
import { configVars } from './launcher/settings';
import { errorResponse } from '../pipeline/respond';
import { localFront } from './service';
import { closeRuns } from './close-runs';
import { StoreObject } from '../object/store-object';
import type { SqlDb } from '../../storage/sql/sql';

/** Answers one request that arrived from the TCP peer `clientIp`. */
export type InProcessService = (request: Request, clientIp: string) => Promise<Response>;

/**
 * The service in one process, as Bun and Deno run it: the store's object (the same class a Durable
 * Object holds under workerd) on a local SQLite file in this process, the Node implementation of the
 * host port called directly (no HTTP in between), the daily run on a timer. The runtime's entry
 * opens the database and serves HTTP, and `upgrade` makes a WebSocket on its server for a run's
 * DevTools endpoint; everything in between is here, once.
 */
export async function inProcessService(
  db: SqlDb,
  { settings, version, onStop }: ProcessStart,
  upgrade: UpgradeWebSocket,
): Promise<InProcessService> {
  // WAL with a full sync at every commit: an acknowledged write survives a crash of the machine.
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  const browsers = browserRuns(settings);
  const host = nodeHost(settings.dataRoot, settings.team, browsers);
  // Stops the browsers after the server (steps run last added first): no request can start one any more.
  onStop(() => browsers.stopAll());
  const config = configFrom(configVars(settings, version));
  const object = await StoreObject.start({
    db,
    host,
    config,
    // A timer does not outlive the process, so there is never a pending one to keep.
    wakeAt: (at, { run }) => void setTimeout(run, at - Date.now()),
  });
  const waitUntil = (promise: Promise<unknown>) =>
    void promise.catch((error) => console.error('background work failed:', error));
  const front = localFront({
    config,
    host,
    object: (request, sender, url) => object.serve(request, { ...sender, url: url.href }, waitUntil),
    devtools: (request) => browsers.serve(request, upgrade),
  });
  // The buffered api log lines are written before the process exits (the entry's server stops first).
  onStop(() => Promise.all([front.flushLogs(), object.flushLogs()]));
  const serve: InProcessService = (request, clientIp) => front(request, { clientIp, waitUntil });
  // Before the lines are flushed (steps run last added first), so that the close's own line is written.
  onStop(() => closeRuns(browsers, settings, (request) => serve(request, '127.0.0.1')));
  return serve;
}

/**
 * The last resort of a runtime's HTTP server, for whatever fails outside the pipeline's own envelope:
 * the envelope still, never the runtime's error page (which shows paths and source lines). The cause
 * goes to the console only.
 */
export function internalError(error: unknown): Response {
  const requestId = crypto.randomUUID();
  console.error(`request ${requestId} failed outside the pipeline:`, error);
  return errorResponse(new ApiError('internal'), requestId, null);
}
