import type { Token } from './schema';

/**
 * The live tokens of the served store, by hash, in module state, so that authenticating a scoped
 * token needs no store call. It holds only where the worker and the store share this module: under
 * `workerd serve` the Worker and its Durable Object run in one isolate, and Bun and Deno run the store
 * in process. The store fills it at start and changes it synchronously with every create and revoke,
 * so a revocation takes effect on the very next request; expiry is checked at use.
 *
 * Whether it holds is detected, not assumed: the store answers a token check with the id of its own
 * module instance (`thisIsolate()`); only when that is the worker's own does the store client
 * (storage/client.ts) answer the check from the cache. Elsewhere (the store in another isolate, as
 * the vitest pool may place it) every check asks the store.
 *
 * A change the store's commit later rolls back errs safe: a revocation undone still refuses the
 * token until the store restarts; a creation undone was never answered, so no one holds that token.
 */
let isolateId: string | undefined;
/** Made at first use: workerd allows no random values at module scope. */
export const thisIsolate = () => (isolateId ??= crypto.randomUUID());

const live = new Map<string, Token>();
let filled = false;
let shared = false;

export const sharedTokens = {
  /** By the store at start: every live token. */
  fill(tokens: Iterable<[hash: string, token: Token]>): void {
    live.clear();
    for (const [hash, token] of tokens) live.set(hash, token);
    filled = true;
  },
  added(hash: string, token: Token): void {
    if (filled) live.set(hash, token);
  },
  revoked(id: string): void {
    for (const [hash, token] of live) if (token.id === id) live.delete(hash);
  },
  /** By the worker, with the store's answer to a token check: whether the store shares this module. */
  storeAnswered(isolate: string): void {
    shared = filled && isolate === thisIsolate();
  },
  /** The live token with this hash as of `now` (null: none), or undefined when the store must be asked. */
  lookup(hash: string, now: number): Token | null | undefined {
    if (!shared) return undefined;
    const token = live.get(hash);
    return token && (token.expires_at === null || token.expires_at > now) ? token : null;
  },
};
