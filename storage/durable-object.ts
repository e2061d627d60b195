import { DurableObject } from 'cloudflare:workers';
import { hostClient } from '../src/host/port';
import type { JobReport } from './jobs/daily-job';
import type { Reply, StoreCall } from './surface';
import { durableSql } from './sql/durable-sql';
import { startStore, type StartedStore, type StoreStartOptions } from './startup';
import { LOCAL_STORE_KEY } from './client';

/** What the store's Durable Object is created with: the host port's binding (the worker's env is wider). */
export interface StoreEnv {
  HOST: Fetcher;
}

/** A Durable Object's alarm as the store's wake-up. Alarms survive restarts: at start one is set only if none is pending, so a restart never skips a run. */
export function alarmWakeUp(storage: DurableObjectStorage): StoreStartOptions['wakeAt'] {
  return async (at, { atStart }) => {
    if (!atStart || (await storage.getAlarm()) === null) await storage.setAlarm(at);
  };
}

/** The one writer: a SQLite-backed Durable Object that serves the `Store` over RPC. */
export class StoreObject extends DurableObject<StoreEnv> {
  private started: StartedStore | undefined;

  constructor(ctx: DurableObjectState, env: StoreEnv) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.started = await startStore(durableSql(ctx.storage), hostClient(env.HOST), {
        storeKey: LOCAL_STORE_KEY,
        wakeAt: alarmWakeUp(ctx.storage),
      });
    });
  }

  /** Every store call of the worker: one RPC (the hops of a store call: storage/client.ts). */
  invoke(call: StoreCall): Promise<Reply> {
    return this.started!.invoke(call);
  }

  async alarm(): Promise<void> {
    await this.runDaily();
  }

  /** The daily run (retention cleanups, audit anchors), then the next one is scheduled. */
  runDaily(now = Date.now()): Promise<JobReport[]> {
    return this.started!.runDaily(now);
  }
}
