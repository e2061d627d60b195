import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { LOCAL_STORE_KEY, storeClient, type Invoke, type StoreClient } from '../../storage/client';
import type { SqlValue } from '../../storage/sql/sql';
import { storeStub } from '../../src/runtimes/workerd/env';
import type { StoreObject } from '../../storage/durable-object';

/** What a test sees inside the store's Durable Object. */
export interface InStore {
  instance: StoreObject;
  /** The store the instance serves, called as the worker calls it (through its group commit). */
  store: StoreClient;
  /** The Durable Object's storage: what `durableSql` wraps, and `transactionSync`. */
  storage: DurableObjectStorage;
  /** Its SQLite database, raw. */
  sql: SqlStorage;
}

/**
 * The one way tests reach the store directly: `fn` runs inside its Durable Object, beside the
 * service, on the same database the requests see.
 */
export function inStore<T>(fn: (inside: InStore) => T | Promise<T>): Promise<T> {
  return runInDurableObject(storeStub(env), (instance, state) =>
    fn({
      instance,
      store: storeClient((call) => instance.invoke(call), { storeKey: LOCAL_STORE_KEY }),
      storage: state.storage,
      sql: state.storage.sql,
    }),
  );
}

/** Runs one statement on the store's database, as an attacker with the file would; its rows, if any. */
export function sql<T = Record<string, SqlValue>>(query: string, ...params: SqlValue[]): Promise<T[]> {
  return inStore(({ sql }) => sql.exec(query, ...params).toArray() as T[]);
}

/**
 * The store as the worker reaches it (over RPC), for a service a test builds itself; `calls`, when
 * given, gets `family.method` of every call, to show what a request asked the store.
 */
export function storeOverRpc(calls?: string[]): Invoke {
  return (call) => {
    calls?.push(`${call.family}.${call.method}`);
    return storeStub(env).invoke(call);
  };
}
