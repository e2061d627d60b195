import type { WorkerEnv } from '../../src/runtimes/workerd/env';

declare global {
  namespace Cloudflare {
    // `env` from 'cloudflare:workers' carries the worker's own bindings.
    interface Env extends WorkerEnv {}
    // `exports` from 'cloudflare:workers' is the worker's main module: `exports.default.fetch` calls it.
    interface GlobalProps {
      mainModule: typeof import('../../src/runtimes/workerd/worker');
    }
  }
}
