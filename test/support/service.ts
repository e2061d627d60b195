import { env } from 'cloudflare:workers';
import type { StoreClient } from '../../storage/dispatch';
import { createApp } from '../../src/app';
import { configFrom, type Config } from '../../src/config';
import { hostClient } from '../../src/host/port';
import { ROUTES } from '../../src/routes/table';
import type { CallOptions } from './api';
import { storeOverRpc } from './store';

export type Fetcher = NonNullable<CallOptions['fetcher']>;

/**
 * The service as `src/runtimes/workerd/worker.ts` builds it, on the same store, with what a test
 * changes: its configuration or the client it reaches the store through. Its answers are the app's
 * own Response objects, so a test decides when (and whether) a streamed body is read.
 */
export function serviceWith(options: { config?: Partial<Config>; store?: StoreClient } = {}): Fetcher {
  const app = createApp(ROUTES, {
    config: { ...configFrom(env), ...options.config },
    store: options.store ?? storeOverRpc(),
    host: hostClient(env.HOST),
  });
  return { fetch: (url, init) => app(new Request(url, init), { clientIp: '127.0.0.1', waitUntil: () => {} }) };
}
