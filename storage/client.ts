import { ApiError } from '../src/shared/errors/api-error';
import { JsonBody } from '../src/shared/json-body';
import type { Store, StoreFamily } from './store';
import { STORE_SURFACE, type DeclaredMethod, type Invoke, type StoreCall } from './surface';
import type { FailureAudit } from './system/failure';
import { thisIsolate, tokenCache } from './tokens/shared-cache';

/*
 * The Worker's side of the store: the one module of storage that the pipeline imports. A call
 * becomes data (a StoreCall) because the Durable Object runs in its own isolate, or process, as far
 * as the code may assume; the hops from a handler to SQL, and why each is there, are in
 * docs/architecture.md#the-store-call-path.
 */

export type { Invoke, Reply, StoreCall } from './surface';
export type { ChainTip } from './audit/log';
export type { Actor, AuditContext, Via } from './audit/entry';
export { DenialCoalescer, type Denial } from './audit/denials';
export type { StoreFacts } from './system/schema';
export { parseTeamHead, type TeamHead } from './witness/schema';
export { failureDetails, isDenial, type FailedRequest, type FailureAudit } from './system/failure';

type AsyncMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? ((...args: A) => Promise<Awaited<R>>) & { json: (...args: A) => Promise<JsonBody<Awaited<R>>> }
    : never;
};

/**
 * The store as a handler sees it: the declared methods of each family, every one async, wherever
 * the store runs. `.json(…)` on a method asks for its answer as JSON text, for a handler that
 * returns the value as it is.
 */
export type StoreClient = { [F in StoreFamily]: AsyncMethods<Pick<Store[F], DeclaredMethod<F>>> };

/** A failure whose audit entry the store wrote in the failing call's own batch: the pipeline writes nothing more. */
export class AuditedFailure extends ApiError {}

/** The key of the one store of a local data root: its Durable Object's name, and its token cache's key. */
export const LOCAL_STORE_KEY = 'lpa';

/** Which store a client speaks to, and what rides along with its calls. */
export interface ClientOptions {
  /** The store's key (its object's name): the token cache the client may answer checks from. */
  storeKey: string;
  /** For the requests of an audited route: the failure's audit entry, which rides along with every call. */
  failure?: FailureAudit;
}

/**
 * A typed client over `invoke`: for each declared method of each family, a function that sends the
 * call (Durable Object RPC under workerd, a direct call elsewhere) and returns its value or throws
 * its error.
 */
export function storeClient(invoke: Invoke, { storeKey, failure }: ClientOptions): StoreClient {
  const send = async (call: StoreCall) => {
    const reply = await invoke(call);
    if (reply.ok) return reply.value;
    throw reply.audited
      ? new AuditedFailure(reply.error.code, reply.error.details, reply.error.message)
      : ApiError.fromWire(reply.error);
  };
  const family = (name: StoreFamily): Record<string, unknown> => {
    const calls: Record<string, unknown> = {};
    for (const method of STORE_SURFACE[name]) {
      const call = (args: unknown[], as?: 'json') => ({ family: name, method, args, failure, as }) as StoreCall;
      calls[method] = Object.assign((...args: unknown[]) => send(call(args)), {
        json: async (...args: unknown[]) => new JsonBody((await send(call(args, 'json'))) as string),
      });
    }
    if (name === 'tokens') calls.check = fromSharedCache(calls.check as StoreClient['tokens']['check'], storeKey);
    return calls;
  };
  return new LazyFamilies(family) as unknown as StoreClient;
}

/**
 * A client's families, each made on its first use: an audited request gets a client of its own
 * (its failure's audit entry rides along) and calls one or two of the families, so making every
 * method of every family for it was most of what a team write allocated (docs/benchmarks.md).
 */
class LazyFamilies {
  readonly #made = new Map<StoreFamily, Record<string, unknown>>();
  constructor(private readonly make: (family: StoreFamily) => Record<string, unknown>) {}

  family(name: StoreFamily): Record<string, unknown> {
    let calls = this.#made.get(name);
    if (calls === undefined) this.#made.set(name, (calls = this.make(name)));
    return calls;
  }
}
for (const name of Object.keys(STORE_SURFACE) as StoreFamily[]) {
  Object.defineProperty(LazyFamilies.prototype, name, {
    get(this: LazyFamilies) {
      return this.family(name);
    },
  });
}

/**
 * The token check, answered from the token cache the store shares with this isolate where it holds
 * (storage/tokens/shared-cache.ts), so that authenticating a scoped token needs no store call;
 * elsewhere one store call, whose answer shows whether the cache holds.
 */
function fromSharedCache(ask: StoreClient['tokens']['check'], storeKey: string): StoreClient['tokens']['check'] {
  const cache = tokenCache(storeKey);
  const check = async (hash: string) => {
    const token = cache.lookup(hash, Date.now());
    if (token !== undefined) return { token, isolate: thisIsolate() };
    const answer = await ask(hash);
    cache.storeAnswered(answer.isolate);
    return answer;
  };
  return Object.assign(check, { json: ask.json });
}
