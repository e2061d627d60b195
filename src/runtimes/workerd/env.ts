import type { DurableStoreObject, LocalStoreEnv } from '../../object/durable-store-object';

/** The name of the one store of a data root: its Durable Object's. */
export const LOCAL_STORE_NAME = 'lpa';

/**
 * The bindings the worker is created with (the workerd config the launcher generates; wrangler.toml
 * in the tests): its configuration, the store's Durable Object namespace and the host port.
 */
export interface WorkerEnv extends LocalStoreEnv {
  STORE: DurableObjectNamespace<DurableStoreObject>;
}

/** The one store of a data root. */
export function storeStub(env: WorkerEnv): DurableObjectStub<DurableStoreObject> {
  return env.STORE.getByName(LOCAL_STORE_NAME);
}
