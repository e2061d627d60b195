import { ApiError, type WireError } from '../src/errors/api-error';
import type { Store, StoreFamily } from './store';

/** The answer of one store call, as plain data that survives Durable Object RPC. */
export type Reply = { ok: true; value: unknown } | { ok: false; error: WireError };

type AsyncMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/** The store as a handler sees it: every method async, wherever the store runs. */
export type StoreClient = { [F in StoreFamily]: AsyncMethods<Store[F]> };

export type Invoke = (family: string, method: string, args: unknown[]) => Promise<Reply>;

/**
 * Calls one public method of one family; failures come back as data, never as a thrown error.
 * `within` wraps the call itself (a savepoint, under group commit), so a failing call is undone
 * before its failure is turned into a reply.
 */
export function dispatch(
  store: Store,
  family: string,
  method: string,
  args: unknown[],
  within: <T>(call: () => T) => T = (call) => call(),
): Reply {
  const target = Object.hasOwn(store, family) ? (store as unknown as Record<string, object>)[family] : undefined;
  const fn = target && method !== 'constructor' && Object.hasOwn(Object.getPrototypeOf(target), method)
    ? (target as Record<string, unknown>)[method]
    : undefined;
  if (typeof fn !== 'function') return { ok: false, error: new ApiError('internal').toWire() };
  try {
    return { ok: true, value: within(() => fn.apply(target, args)) };
  } catch (thrown) {
    if (thrown instanceof ApiError) return { ok: false, error: thrown.toWire() };
    console.error(`store ${family}.${method} failed:`, thrown);
    return { ok: false, error: new ApiError('internal').toWire() };
  }
}

/** A typed client over any `invoke`: Durable Object RPC under workerd, a direct call elsewhere. */
export function storeClient(invoke: Invoke): StoreClient {
  return new Proxy({} as StoreClient, {
    get: (_, family: string) =>
      new Proxy({}, {
        get: (__, method: string) => async (...args: unknown[]) => {
          const reply = await invoke(family, method, args);
          if (!reply.ok) throw ApiError.fromWire(reply.error);
          return reply.value;
        },
      }),
  });
}
