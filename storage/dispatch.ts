import { ApiError, type WireError } from '../src/shared/errors/api-error';
import { JsonBody } from '../src/shared/json-body';
import { FAMILY_CLASSES, type Store, type StoreFamily } from './store';
import { isDenial, type FailureAudit } from './system/failure';

/*
 * A store call, from a handler to SQL. The hops that remain, and why each one is there:
 *
 *   handler          ctx.store.globals.write(audit, name, body)   typed by StoreClient: "go to definition" lands on Globals.write
 *   store client     storeClient (below)                          the call becomes data, a StoreCall: a Durable Object
 *                                                                 runs in its own isolate (or process) as far as the code
 *                                                                 may assume, so only data crosses to it
 *   RPC              StoreObject.invoke (src/runtimes/workerd)    the one RPC method of the store; Bun and Deno call the
 *                                                                 same invoke in process, with structured clones
 *   group commit     storage/group-commit.ts                      calls that arrive together share one transaction (one
 *                                                                 fsync), each in a savepoint of its own
 *   dispatch         dispatch (below)                             the call's method on the Store, checked against the
 *                                                                 family's public methods; a failure comes back as data
 *                                                                 (class identity does not survive RPC), audited in the
 *                                                                 same batch when the call says how
 *   family method    storage/globals/globals.ts                   synchronous: the change and its audit entry in one
 *                                                                 transaction
 *   SqlDb            storage/sql/sql.ts                           durable-sql.ts, bun-sql.ts, node-sql.ts
 */

type MethodOf<F extends StoreFamily> = {
  [M in keyof Store[F]]: Store[F][M] extends (...args: never[]) => unknown ? M : never;
}[keyof Store[F]];
type ArgsOf<F extends StoreFamily, M extends keyof Store[F]> = Store[F][M] extends (...args: infer A) => unknown ? A : never;

/**
 * One store call as data, checked against `Store` at compile time: a family, one of its public
 * methods and that method's arguments. `failure`, on the calls of an audited route, is what the
 * failure's audit entry needs, so that a failing call is audited in its own store call. `as: 'json'`:
 * the value comes back as its JSON text, made in the store (a page the worker only sends on).
 */
export type StoreCall = {
  [F in StoreFamily]: { [M in MethodOf<F>]: { family: F; method: M; args: ArgsOf<F, M>; failure?: FailureAudit; as?: 'json' } }[MethodOf<F>];
}[StoreFamily];

/** The answer of one store call, as plain data that survives Durable Object RPC; `audited`: its failure entry is written. */
export type Reply = { ok: true; value: unknown } | { ok: false; error: WireError; audited: boolean };

export type Invoke = (call: StoreCall) => Promise<Reply>;

type AsyncMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (...args: infer A) => infer R
    ? ((...args: A) => Promise<Awaited<R>>) & { json: (...args: A) => Promise<JsonBody<Awaited<R>>> }
    : never;
};

/**
 * The store as a handler sees it: every method async, wherever the store runs. `.json(…)` on a
 * method asks for its answer as JSON text, for a handler that returns the value as it is.
 */
export type StoreClient = { [F in StoreFamily]: AsyncMethods<Store[F]> };

/** The public methods of each family: those its class declares (its own prototype), without the constructor. */
const PUBLIC_METHODS = new Map<string, ReadonlySet<string>>(
  Object.entries(FAMILY_CLASSES).map(([family, cls]) => [
    family,
    new Set(Object.getOwnPropertyNames(cls.prototype).filter((name) => name !== 'constructor')),
  ]),
);

/** A failure whose audit entry the store wrote in the failing call's own batch: the pipeline writes nothing more. */
export class AuditedFailure extends ApiError {}

/**
 * Runs one call on the store; failures come back as data, never as a thrown error. `within` wraps
 * the call itself (a savepoint, under group commit), so a failing call is undone before its
 * failure is audited (in the enclosing transaction) and turned into a reply. A denial (an account
 * refusing a profile, 403) is left to the pipeline, whose coalescer decides whether it is written.
 */
export function dispatch(store: Store, call: StoreCall, within: <T>(run: () => T) => T = (run) => run()): Reply {
  if (!PUBLIC_METHODS.get(call.family)?.has(call.method)) return { ok: false, error: new ApiError('internal').toWire(), audited: false };
  const family = store[call.family] as unknown as Record<string, (...args: unknown[]) => unknown>;
  try {
    const value = within(() => family[call.method]!(...call.args));
    return { ok: true, value: call.as === 'json' ? JSON.stringify(value) : value };
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) console.error(`store ${call.family}.${call.method} failed:`, thrown);
    const error = thrown instanceof ApiError ? thrown : new ApiError('internal');
    return { ok: false, error: error.toWire(), audited: call.failure !== undefined && !isDenial(error.status) && auditFailure(store, call.failure, error) };
  }
}

function auditFailure(store: Store, failure: FailureAudit, error: ApiError): boolean {
  try {
    store.system.recordFailure(failure, error.code, error.status);
    return true;
  } catch (thrown) {
    console.error('could not audit a failed store call', thrown);
    return false;
  }
}

/**
 * A typed client over `invoke`: for each public method of each family, a function that sends the
 * call (Durable Object RPC under workerd, a direct call elsewhere) and returns its value or throws
 * its error. `failure`, for the requests of an audited route, rides along with every call.
 */
export function storeClient(invoke: Invoke, failure?: FailureAudit): StoreClient {
  const send = async (call: StoreCall) => {
    const reply = await invoke(call);
    if (reply.ok) return reply.value;
    throw reply.audited ? new AuditedFailure(reply.error.code, reply.error.details, reply.error.message) : ApiError.fromWire(reply.error);
  };
  const client: Record<string, Record<string, unknown>> = {};
  for (const [family, methods] of PUBLIC_METHODS) {
    const calls: Record<string, unknown> = (client[family] = {});
    for (const method of methods) {
      const call = (args: unknown[], as?: 'json') => ({ family, method, args, failure, as }) as StoreCall;
      calls[method] = Object.assign((...args: unknown[]) => send(call(args)), {
        json: async (...args: unknown[]) => new JsonBody((await send(call(args, 'json'))) as string),
      });
    }
  }
  return client as unknown as StoreClient;
}
