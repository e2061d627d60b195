import { DurableObject } from 'cloudflare:workers';
import { hostClient } from '../src/host/port';
import type { WorkerEnv } from '../src/env';
import { dispatch, type Reply } from './dispatch';
import { durableSql } from './durable-sql';
import { hostKeys } from './keys';
import { openStore, type Store } from './store';

/** The one writer: a SQLite-backed Durable Object that serves the `Store` over RPC. */
export class StoreObject extends DurableObject<WorkerEnv> {
  private store: Store | undefined;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.store = await openStore(durableSql(ctx.storage), hostKeys(hostClient(env.HOST)));
    });
  }

  invoke(family: string, method: string, args: unknown[]): Reply {
    return dispatch(this.store!, family, method, args);
  }
}
