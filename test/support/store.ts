import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { StoreClient } from '../../storage/client';
import type { SqlValue } from '../../storage/sql/sql';
import { storeStub } from '../../src/runtimes/workerd/env';
import type { DurableStoreObject } from '../../src/object/durable-store-object';
import type { StoreObject } from '../../src/object/store-object';

/** What a test sees inside the store's Durable Object. */
export interface InStore {
  instance: DurableStoreObject;
  /** The store's object the instance holds: its store, its memory, its pipeline. */
  object: StoreObject;
  /** The store as its handlers call it (through its group commit). */
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
  return runInDurableObject(storeStub(env), (instance, state) => {
    const object = instance.object!;
    return fn({ instance, object, store: object.started.client, storage: state.storage, sql: state.storage.sql });
  });
}

/** Runs one statement on the store's database, as an attacker with the file would; its rows, if any. */
export function sql<T = Record<string, SqlValue>>(query: string, ...params: SqlValue[]): Promise<T[]> {
  return inStore(({ sql }) => sql.exec(query, ...params).toArray() as T[]);
}

/** The same client with every call's `family.method` pushed to `calls` first: what a request asked the store. */
export function recordingClient(client: StoreClient, calls: string[]): StoreClient {
  return Object.fromEntries(
    Object.entries(client).map(([family, methods]) => [
      family,
      Object.fromEntries(
        Object.entries(methods as Record<string, (...args: unknown[]) => unknown>).map(([method, call]) => [
          method,
          (...args: unknown[]) => {
            calls.push(`${family}.${method}`);
            return call(...args);
          },
        ]),
      ),
    ]),
  ) as StoreClient;
}
