import type { WorkerEnv } from '../../src/env';

// The bindings `env` from 'cloudflare:test' carries are the worker's own.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
  }
}
