import { configVars, type LaunchSettings } from './settings';
import { FLUSH_ENTRYPOINT } from '../workerd/flush-logs';

export interface WorkerdPaths {
  /** The bundled worker, relative to the config file. */
  bundle: string;
  /** The SHA-256 module the worker imports as `./sha256.wasm`, relative to the config file. */
  sha256Wasm: string;
  hostSocket: string;
  /** The port on 127.0.0.1 workerd serves HTTP on, reached only through the front door (../front/front-door.ts). */
  httpPort: number;
  /** The unix socket only the launcher reaches, bound to the worker's log-flush entrypoint. */
  flushSocket: string;
  storeDir: string;
}

/**
 * workerd's compatibility date for the worker: the installed workerd's own date, the same as
 * wrangler.toml's (the tests); test/node/toolchain.test.ts checks both. From 2026-08-04 it turns on
 * the `node:` modules (`nodejs_compat`) itself, so the config names no flag: workerd prints a notice
 * on every start for a flag that the date already implies.
 */
export const COMPATIBILITY_DATE = '2026-11-17';

const text = (name: string, value: string) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`;

/**
 * The workerd config of `npm start`: the worker on 127.0.0.1 only (behind the launcher's front door,
 * which connects from each client's own address), its store on local disk, the host port on a
 * private unix socket. No `cfBlobHeader` is set, so `request.cf` (with the peer's `clientIp`) comes
 * from workerd itself and no client header can forge it. A second socket, a unix
 * socket in the launcher's private run folder, serves the worker's log-flush entrypoint only.
 */
export function workerdConfig(settings: LaunchSettings, paths: WorkerdPaths, version: string): string {
  const bindings = [
    '(name = "STORE", durableObjectNamespace = "DurableStoreObject")',
    '(name = "HOST", service = "host")',
    ...Object.entries(configVars(settings, version)).map(([name, value]) => text(name, value ?? '')),
  ];
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "lpa", worker = .lpa),
    (name = "host", external = (address = ${JSON.stringify(`unix:${paths.hostSocket}`)}, http = ())),
    (name = "store", disk = (path = ${JSON.stringify(paths.storeDir)}, writable = true)),
    (name = "internet", network = (allow = ["public", "private", "local"], tlsOptions = (trustBrowserCas = true))),
  ],
  sockets = [
    (name = "http", address = ${JSON.stringify(`127.0.0.1:${paths.httpPort}`)}, http = (), service = "lpa"),
    (name = "flush", address = ${JSON.stringify(`unix:${paths.flushSocket}`)}, http = (), service = (name = "lpa", entrypoint = ${JSON.stringify(FLUSH_ENTRYPOINT)})),
  ],
);

const lpa :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed ${JSON.stringify(paths.bundle)}),
    (name = "sha256.wasm", wasm = embed ${JSON.stringify(paths.sha256Wasm)}),
  ],
  compatibilityDate = ${JSON.stringify(COMPATIBILITY_DATE)},
  bindings = [
    ${bindings.join(',\n    ')},
  ],
  durableObjectNamespaces = [(className = "DurableStoreObject", uniqueKey = "lpa-store", enableSql = true, preventEviction = true)],
  durableObjectStorage = (localDisk = "store"),
  globalOutbound = "internet",
);
`;
}
