import type { GroupCommit } from './group-commit';
import type { Store, StoreFamily } from './store';

/*
 * The store as its object's pipeline and handlers call it: the families of `Store`, each call a unit
 * of work in the store's group commit (./group-commit.ts). The one module of storage that the
 * pipeline imports; the path from a request to SQL is in docs/architecture.md#one-path.
 */

export type { ChainTip } from './audit/log';
export type { Actor, AuditContext, Via } from './audit/entry';
export type { Denial } from './audit/denials';
export type { StoreFacts } from './system/schema';
export type { Store } from './store';
export { GroupCommit } from './group-commit';
export { parseTeamHead, type TeamHead } from './witness/schema';
export { failureDetails, isDenial, type FailedRequest, type FailureAudit } from './system/failure';

type Committed<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** Every method of every family, as a promise of what it returns once its group commit is in. */
export type StoreClient = { [F in StoreFamily]: Committed<Store[F]> };

/** The store's families with each method run through `commit`; made once per store, at its start. */
export function committedStore(store: Store, commit: GroupCommit): StoreClient {
  const client: Record<string, Record<string, unknown>> = {};
  for (const [name, family] of Object.entries(store) as [StoreFamily, object][]) {
    const calls: Record<string, unknown> = {};
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(family)).filter((key) => key !== 'constructor');
    const target = family as Record<string, (...args: unknown[]) => unknown>;
    for (const method of methods) calls[method] = (...args: unknown[]) => commit.run(() => target[method]!(...args));
    client[name] = calls;
  }
  return client as StoreClient;
}
