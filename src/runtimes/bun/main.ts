/**
 * `npm run start:bun`: the same pipeline, handlers and storage modules on Bun, with Bun's own
 * SQLite and HTTP server. The store runs in process; the host port is the launcher's Node handler,
 * called directly.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { createApp } from '../../app';
import { configFrom } from '../../config';
import { createHostHandler } from '../../host/node/host-handler';
import { hostClient } from '../../host/port';
import { startProcess } from '../../launcher/process-startup';
import { configVars } from '../../launcher/settings';
import { ROUTES } from '../../routes/table';
import { startStore } from '../store-startup';
import { storeClient } from '../../../storage/dispatch';
import { bunSql } from '../../../storage/sql/bun-sql';

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
    fetch: (request, srv) =>
      app(request, {
        clientIp: srv.requestIP(request)?.address ?? 'unknown',
        waitUntil: (promise) => void promise.catch((error) => console.error('background work failed:', error)),
      }),
  });
  onStop(() => void server.stop());
  return `Bun ${Bun.version}`;
});
