import type { WireError } from '../src/shared/errors/api-error';
import type { Store, StoreFamily } from './store';
import type { FailureAudit } from './system/failure';
import type { ChainTip } from './audit/log';

type MethodOf<F extends StoreFamily> = {
  [M in keyof Store[F]]: Store[F][M] extends (...args: never[]) => unknown ? M : never;
}[keyof Store[F]];

/**
 * What crosses from the Worker to the store's Durable Object: per family, the methods that handlers
 * and the pipeline may call. Nothing else of the Store is reachable from outside the object (the
 * daily jobs and start-up call it from inside): the store client offers only these, and dispatch
 * refuses any other call. Checked against the family classes: a name that is not a public method
 * of its family does not compile.
 */
export const STORE_SURFACE = {
  system: ['info', 'facts', 'record', 'recordDenial', 'recordDenials', 'recordFailure'],
  tokens: ['check', 'create', 'list', 'revoke'],
  settings: ['logRetention', 'setLogRetention', 'auditRetentionReport', 'setAuditRetention'],
  globals: ['list', 'read', 'write', 'delete'],
  flows: ['create', 'list', 'get', 'delete'],
  shares: ['list', 'create', 'revoke', 'redeem', 'import'],
  audit: ['list', 'hashes', 'extent', 'exportPageSize', 'exportHead', 'verifySlice', 'checkpoint', 'publicKey'],
  profiles: ['create', 'get', 'update', 'delete', 'list', 'count'],
  profileAccounts: ['list', 'create', 'update', 'delete', 'password', 'totp'],
  membership: ['read', 'save'],
  members: ['set', 'list', 'remove', 'role'],
  witness: ['see', 'summary', 'heads', 'checkpoint', 'keep'],
  transfer: ['exportPage', 'import'],
} as const satisfies { [F in StoreFamily]: readonly MethodOf<F>[] };

/** The declared methods of family `F` (all of them its methods: `satisfies` above checks it, `Extract` tells the compiler). */
export type DeclaredMethod<F extends StoreFamily> = Extract<(typeof STORE_SURFACE)[F][number], keyof Store[F]>;

type ArgsOf<F extends StoreFamily, M extends keyof Store[F]> = Store[F][M] extends (...args: infer A) => unknown
  ? A
  : never;

/**
 * One store call as data, checked against the surface at compile time: a family, one of its declared
 * methods and that method's arguments. `failure`, on the calls of an audited route, is what the
 * failure's audit entry needs, so that a failing call is audited in its own store call. `as: 'json'`:
 * the value comes back as its JSON text, made in the store (a page the worker only sends on).
 */
export type StoreCall = {
  [F in StoreFamily]: {
    [M in DeclaredMethod<F>]: { family: F; method: M; args: ArgsOf<F, M>; failure?: FailureAudit; as?: 'json' };
  }[DeclaredMethod<F>];
}[StoreFamily];

/**
 * The answer of one store call, as plain data that survives Durable Object RPC; `audited`: its failure
 * entry is written; `head`: the chain's tip once the call's group commit is in.
 */
export type Reply = ({ ok: true; value: unknown } | { ok: false; error: WireError; audited: boolean }) & {
  head?: ChainTip;
};

/** Sends one store call: the Durable Object's `invoke` over RPC, or the store in process. */
export type Invoke = (call: StoreCall) => Promise<Reply>;

const DECLARED = new Map<string, ReadonlySet<string>>(
  Object.entries(STORE_SURFACE).map(([family, methods]) => [family, new Set(methods)]),
);

/** Whether a call that arrived as data (over RPC: typed, not checked) names a declared method. */
export const isDeclared = (call: StoreCall): boolean => DECLARED.get(call.family)?.has(call.method) === true;
