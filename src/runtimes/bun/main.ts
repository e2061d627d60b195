/**
 * `npm run start:bun`: the same pipeline, handlers and storage modules on Bun, with Bun's own
 * SQLite and HTTP server. The store runs in process; the host port is the launcher's Node handler,
 * called directly.
 */
import { Database } from 'bun:sqlite';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bunSql } from '../../../storage/sql/bun-sql';
import { storeClient } from '../../../storage/dispatch';
import { groupCommit } from '../../../storage/group-commit';
import { nextDailyRun, runDailyJobs } from '../../jobs/daily';
import { hostKeys } from '../store-keys';
import { appliedMigrationIds, logStoreStart } from '../store-startup';
import { openStore, type Store } from '../../../storage/store';
import { createApp } from '../../app';
import { configFrom } from '../../config';
import { createHostHandler } from '../../host/node/host-handler';
import { hostClient } from '../../host/port';
import { announceStart, announceStop } from '../../launcher/announce';
import { LaunchError, launchSettings } from '../../launcher/settings';
import { ROUTES } from '../../routes/table';

function scheduleDailyRuns(store: Store, host: ReturnType<typeof hostClient>): void {
  setTimeout(async () => {
    await runDailyJobs(store, host, Date.now());
    scheduleDailyRuns(store, host);
  }, nextDailyRun(Date.now()) - Date.now());
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  process.umask(0o077);
  const settings = launchSettings(process.env);
  const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const storeDir = join(settings.dataRoot, 'store');
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });

  const database = new Database(join(storeDir, 'lpa-bun.sqlite'), { create: true, strict: true });
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = FULL');
  const handleHost = createHostHandler(settings.dataRoot);
  const host = hostClient({ fetch: (input, init) => handleHost(new Request(input, init)) });
  const db = bunSql(database);
  const migrationsBefore = appliedMigrationIds(db);
  const store = await openStore(db, hostKeys(host));
  void logStoreStart(host, store, db, migrationsBefore);
  scheduleDailyRuns(store, host);
  const grouped = groupCommit(() => store, db);

  const app = createApp(ROUTES, {
    config: configFrom({
      LPA_PORT: String(settings.port),
      LPA_DATA_ROOT: settings.dataRoot,
      LPA_ALLOWED_ORIGINS: settings.allowedOrigins,
      LPA_ADMIN_TOKEN_SHA256: settings.adminTokenSha256,
      LPA_VERSION: version,
      LPA_ACCOUNT_URL: settings.accountUrl,
    }),
    // The same group commit and dispatch as the Durable Object; cloning stands in for RPC's copy.
    store: storeClient(async (family, method, args) => structuredClone(await grouped(family, method, structuredClone(args)))),
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
  const shutdown = (signal: string) => {
    announceStop(settings, signal);
    void server.stop();
    database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  announceStart(settings, version, `Bun ${Bun.version}`, performance.now() - startedAt);
}

main().catch((error: unknown) => {
  console.error(error instanceof LaunchError ? `LPA: ${error.message}` : error);
  process.exit(1);
});
