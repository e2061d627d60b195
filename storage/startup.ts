import type { HostPort } from '../src/host/port';
import type { LogRecord } from '../src/shared/logs/line';
import { nextDailyRun, runDailyJobs } from './jobs/daily';
import type { JobReport } from './jobs/daily-job';
import { sealFinishedDay, type SealReport } from './jobs/audit-seal';
import { hostKeys } from './keys';
import { committedStore, type StoreClient } from './client';
import { GroupCommit } from './group-commit';
import type { MigrationReport } from './migrations/migrate';
import type { SqlDb } from './sql/sql';
import { openStore, type Store } from './store';

/** What differs between runtimes in starting the store, besides their SqlDb. */
export interface StoreStartOptions {
  /**
   * Wakes the runtime at `at` (epoch ms) to call `run`: a Durable Object alarm, a timer. `atStart`
   * marks the wake-up asked for at start: a runtime whose wake-up outlives a restart keeps one that
   * is already pending, so that a restart never skips a run.
   */
  wakeAt(at: number, wake: { run: () => Promise<unknown>; atStart: boolean }): Promise<void> | void;
}

/** A started store, as a runtime serves it. */
export interface StartedStore {
  /** The store itself: its families' synchronous methods, for reads that need no commit of their own. */
  store: Store;
  /** The same families, each call a unit of work in the store's group commit: what handlers call. */
  client: StoreClient;
  /** The daily run (audit anchors, retention cleanups) as of `now`; it asks for the next wake-up. */
  runDaily(now?: number): Promise<JobReport[]>;
}

/**
 * The start of the store, the same under every runtime: read the keys (made for a new store), migrate,
 * open the store with its group commit, write the start to the `core` log, and ask for the
 * first daily run.
 */
export async function startStore(db: SqlDb, host: HostPort, options: StoreStartOptions): Promise<StartedStore> {
  const { store, migrations } = await openStore(db, hostKeys(host));
  // A service stopped over midnight seals the day it last wrote now, before a later day could follow it.
  const seal = await sealFinishedDay(store, host, Date.now()).catch((error: unknown) => ({
    sealed: [],
    refused: String(error),
  }));
  // Not awaited: the store serves at once, and a failed log write is reported, not fatal.
  void logStoreStart(host, store, migrations, seal);
  const runDaily = async (now = Date.now()) => {
    const reports = await runDailyJobs(store, host, now);
    await options.wakeAt(nextDailyRun(Date.now()), { run: () => runDaily(), atStart: false });
    return reports;
  };
  await options.wakeAt(nextDailyRun(Date.now()), { run: () => runDaily(), atStart: true });
  return { store, client: committedStore(store, new GroupCommit(db)), runDaily };
}

/** The `core` log's lines for a store that just opened: what it migrated, its version, its vault, a seal it refused. */
async function logStoreStart(
  host: HostPort,
  store: Store,
  migrations: MigrationReport,
  seal: SealReport,
): Promise<void> {
  const { store_id, db_version, vault } = store.system.info();
  const ts = Date.now();
  const applied = migrations.applied.map((migration) => migration.id).join(',') || 'none';
  const records: LogRecord[] = [
    {
      ts,
      level: 'info',
      message: 'store opened',
      fields: { store_id, db_version, migrations_applied: applied, vault: vault.state },
    },
  ];
  if (seal.refused)
    records.push({ ts, level: 'warn', message: 'audit day not sealed', fields: { reason: seal.refused } });
  if (vault.state !== 'unlocked')
    records.push({
      ts,
      level: 'warn',
      message: `vault is ${vault.state}; secrets cannot be read or written`,
      fields: { reason: vault.reason },
    });
  await host.logs
    .append('core', records)
    .catch((error: unknown) => console.error('core log write failed:', String(error)));
}
