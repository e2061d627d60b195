import { LOCAL_STORE_KEY, type Invoke } from '../../storage/client';
import type { HostPort } from '../host/port';
import { createApp, type App } from '../pipeline/app';
import type { Config } from '../shared/config';
import { ROUTES } from '../../handlers';

/** What a runtime supplies; the connection (peer address, how to keep work alive) comes with each request. */
export interface RuntimeParts {
  config: Config;
  /** The store: the Durable Object's `invoke` over RPC, or the store in this process. */
  store: Invoke;
  /** The host port: a client of the launcher's host server, or the Node implementation itself. */
  host: HostPort;
}

/**
 * The service, wired once for every runtime: the pipeline over the route table, with the store and
 * the host port a runtime hands it. workerd's worker, the in-process runtimes (Bun, Deno) and the
 * tests' own services all start here.
 */
export function lpaService({ config, store, host }: RuntimeParts): App {
  return createApp(ROUTES, { config, store, storeKey: LOCAL_STORE_KEY, host });
}
