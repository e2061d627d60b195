import { env, runInDurableObject } from 'cloudflare:test';
import { storeStub } from '../../src/runtimes/workerd/env';

/** Raw rows of the store's SQLite database, read inside the Durable Object. */
export function sqlRows<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]> {
  return runInDurableObject(storeStub(env), (_, state) => state.storage.sql.exec(query, ...params).toArray() as T[]);
}

/** Runs a statement inside the Durable Object, for tests that tamper with storage. */
export function sqlRun(query: string, ...params: unknown[]): Promise<void> {
  return runInDurableObject(storeStub(env), (_, state) => {
    state.storage.sql.exec(query, ...params).toArray();
  });
}
