import type { ConfigVars } from '../../shared/config';
import type { StoreEnv, StoreObject } from '../../../storage/durable-object';
import { LOCAL_STORE_KEY } from '../../../storage/client';

/**
 * The bindings the worker is created with (the workerd config the launcher generates; wrangler.toml
 * in the tests): its configuration, the store's Durable Object namespace and the host port.
 */
export interface WorkerEnv extends ConfigVars, StoreEnv {
  STORE: DurableObjectNamespace<StoreObject>;
}

/** The one store of a data root. */
export function storeStub(env: WorkerEnv): DurableObjectStub<StoreObject> {
  return env.STORE.get(env.STORE.idFromName(LOCAL_STORE_KEY));
}
