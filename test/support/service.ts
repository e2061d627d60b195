import { env } from 'cloudflare:workers';
import type { Invoke } from '../../storage/client';
import { configFrom, type Config } from '../../src/shared/config';
import { hostClient, type HostPort } from '../../src/host/port';
import { lpaService } from '../../src/runtimes/service';
import type { CallOptions } from './api';
import { storeOverRpc } from './store';

export type Fetcher = NonNullable<CallOptions['fetcher']>;

/** A service built by a test; `idle` settles once the work its answers left running (`waitUntil`) has ended. */
export interface TestService extends Fetcher {
  idle: () => Promise<void>;
}

/**
 * The service as `src/runtimes/workerd/worker.ts` builds it, on the same store, with what a test
 * changes: its configuration, the client it reaches the store through, or its host port. Its answers are the app's
 * own Response objects, so a test decides when (and whether) a streamed body is read.
 */
export function serviceWith(options: { config?: Partial<Config>; store?: Invoke; host?: HostPort } = {}): TestService {
  const app = lpaService({
    config: { ...configFrom(env), ...options.config },
    store: options.store ?? storeOverRpc(),
    host: options.host ?? hostClient(env.HOST),
  });
  const background: Promise<unknown>[] = [];
  return {
    fetch: (url, init) =>
      app(new Request(url, init), { clientIp: '127.0.0.1', waitUntil: (promise) => void background.push(promise) }),
    idle: async () => {
      while (background.length > 0) await Promise.allSettled(background.splice(0));
    },
  };
}
