import type { HostPort } from '../host/port';
import { frontRoutes } from '../../handlers/system';
import { createFront, type App, type Onward } from '../pipeline/app';
import type { Config } from '../shared/config';

/** What a runtime supplies: the configuration, the host port, and how it reaches its one store's object. */
export interface RuntimeParts {
  config: Config;
  host: HostPort;
  /** The local store's object: a Durable Object's `serve` over RPC under workerd, the object itself under Bun and Deno. */
  object: Onward;
  /** The host's DevTools endpoints of running profiles (src/pipeline/app.ts FrontDeps). */
  devtools?: (request: Request) => Promise<Response>;
}

/**
 * The local service's front, the same for every runtime: the Host guard, CORS preflights, the
 * console's files and `GET /status` here, every other route to the data root's one store object
 * (src/object/store-object.ts). The front writes every request's `api` line, the object's too (it
 * tells who asked), so the log holds them in the order they were answered. workerd's worker, the
 * in-process runtimes (Bun, Deno) and the tests' own services all start here.
 */
export function localFront({ config, host, object, devtools }: RuntimeParts): App {
  return createFront(frontRoutes, { config, logs: host.logs, onward: object, devtools });
}
