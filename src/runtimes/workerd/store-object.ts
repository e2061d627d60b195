import { DurableObject } from 'cloudflare:workers';
import type { WorkerEnv } from './env';
import { hostClient, type HostPort } from '../../host/port';
import type { Invoke, Reply } from '../../../storage/dispatch';
import { durableSql } from '../../../storage/sql/durable-sql';
import { groupCommit } from '../../../storage/group-commit';
import { nextDailyRun, runDailyJobs, type JobReport } from '../../jobs/daily';
import { hostKeys } from '../store-keys';
import { appliedMigrationIds, logStoreStart } from '../store-startup';
import { openStore, type Store } from '../../../storage/store';

/** The one writer: a SQLite-backed Durable Object that serves the `Store` over RPC. */
export class StoreObject extends DurableObject<WorkerEnv> {
  private store: Store | undefined;
  private run: Invoke | undefined;
  private readonly host: HostPort;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.host = hostClient(env.HOST);
    void ctx.blockConcurrencyWhile(async () => {
      const db = durableSql(ctx.storage);
      const migrationsBefore = appliedMigrationIds(db);
      this.store = await openStore(db, hostKeys(this.host));
      this.run = groupCommit(() => this.store!, db);
      ctx.waitUntil(logStoreStart(this.host, this.store, db, migrationsBefore));
      // Alarms survive restarts; set one only if none is pending, so a restart never skips a run.
      if ((await ctx.storage.getAlarm()) === null) await ctx.storage.setAlarm(nextDailyRun(Date.now()));
    });
  }

  invoke(family: string, method: string, args: unknown[]): Promise<Reply> {
    return this.run!(family, method, args);
  }

  async alarm(): Promise<void> {
    await this.runDaily();
  }

  /** The daily run (retention cleanups, audit anchors), then the next one is scheduled. */
  async runDaily(now = Date.now()): Promise<JobReport[]> {
    const reports = await runDailyJobs(this.store!, this.host, now);
    await this.ctx.storage.setAlarm(nextDailyRun(Date.now()));
    return reports;
  }
}
