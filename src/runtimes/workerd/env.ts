import type { StoreObject, WorkerEnv } from './store-object';

export type { WorkerEnv } from './store-object';

/** The one store of a data root. */
export function storeStub(env: WorkerEnv): DurableObjectStub<StoreObject> {
  return env.STORE.get(env.STORE.idFromName('lpa'));
}
