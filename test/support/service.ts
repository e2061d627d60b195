import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { StartedStore } from '../../storage/startup';
import { configFrom, type Config } from '../../src/shared/config';
import { hostClient, type HostPort } from '../../src/host/port';
import { StoreObject } from '../../src/object/store-object';
import { localFront } from '../../src/runtimes/service';
import { storeStub } from '../../src/runtimes/workerd/env';
import type { CallOptions } from './api';
import { recordingClient, type InStore } from './store';

export type Fetcher = NonNullable<CallOptions['fetcher']>;

/** A service built by a test; `idle` settles once the work its answers left running (`waitUntil`) has ended. */
export interface TestService extends Fetcher {
  idle: () => Promise<void>;
}

export interface ServiceOptions {
  config?: Partial<Config>;
  host?: HostPort;
  /** Gets `family.method` of every store call its handlers make, to show what a request asked the store. */
  calls?: string[];
  /** Another store over the same database (a vault locked, say), made inside the object. */
  store?: (inside: Omit<InStore, 'store'>) => Pick<StartedStore, 'store' | 'client'>;
}

/**
 * The service as `src/runtimes/workerd/worker.ts` builds it, on the same store's Durable Object,
 * with what a test changes: its configuration, its host port, the store its object serves. The
 * object the test's front hands requests to is made inside the Durable Object at the first request
 * (a pipeline of its own: its own throttle and memory). Its answers are the app's own Response
 * objects, so a test decides when (and whether) a streamed body is read.
 */
export function serviceWith(options: ServiceOptions = {}): TestService {
  const config = { ...configFrom(env), ...options.config };
  const host = options.host ?? hostClient(env.HOST);
  const background: Promise<unknown>[] = [];
  const waitUntil = (promise: Promise<unknown>) => void background.push(promise);
  let object: StoreObject | undefined;
  const front = localFront({
    config,
    host,
    object: async (request, sender, url) => {
      // A body stream belongs to the context that made it: the object reads a copy made here.
      const body = request.body === null ? null : await request.arrayBuffer();
      return runInDurableObject(storeStub(env), (instance, state) => {
        if (!object) {
          const inside = { instance, object: instance.object!, storage: state.storage, sql: state.storage.sql };
          const started = { ...instance.object!.started, ...options.store?.(inside) };
          const client = options.calls ? recordingClient(started.client, options.calls) : started.client;
          object = new StoreObject({ ...started, client }, { config, host });
        }
        return object.serve(new Request(request, { body }), { ...sender, url: url.href }, waitUntil);
      });
    },
  });
  return {
    fetch: (url, init) => front(new Request(url, init), { clientIp: '127.0.0.1', waitUntil }),
    idle: async () => {
      while (background.length > 0) await Promise.allSettled(background.splice(0));
    },
  };
}
