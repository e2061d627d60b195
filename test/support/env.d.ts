import type { WorkerEnv } from '../../src/runtimes/workerd/env';

declare global {
  namespace Cloudflare {
    // The bindings that `env` from 'cloudflare:test' carries are the worker's own.
    interface Env extends WorkerEnv {}
  }
}
