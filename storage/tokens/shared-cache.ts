import type { Token } from './schema';

/**
 * The live tokens of each store served in this isolate, by hash, in module state, so that
 * authenticating a scoped token needs no store call. Module state is shared by every Durable Object
 * of an isolate (every team's object of the team service may run in one), so the cache is one per
 * store, found by the store's key (its object's name), and a token is only ever looked up in the
 * cache of the store the request is for: a token of one store is unknown to every other.
 *
 * It holds only where the worker and the store share this module: under `workerd serve` the Worker
 * and its Durable Object run in one isolate, and Bun and Deno run the store in process. The store
 * fills its cache at start and changes it synchronously with every create and revoke, so a
 * revocation takes effect on the very next request; expiry is checked at use.
 *
 * Whether it holds is detected, not assumed: the store answers a token check with the id of its own
 * module instance (`thisIsolate()`); only when that is the worker's own does the store client
 * (storage/client.ts) answer the check from the cache. Elsewhere (the store in another isolate, as
 * the vitest pool or Cloudflare may place it) every check asks the store.
 *
 * A change the store's commit later rolls back errs safe: a revocation undone still refuses the
 * token until the store restarts; a creation undone was never answered, so no one holds that token.
 */
let isolateId: string | undefined;
/** Made at first use: workerd allows no random values at module scope. */
export const thisIsolate = () => (isolateId ??= crypto.randomUUID());

export class TokenCache {
  private readonly live = new Map<string, Token>();
  private filled = false;
  private shared = false;

  /** By the store at start: every live token. */
  fill(tokens: Iterable<[hash: string, token: Token]>): void {
    this.live.clear();
    for (const [hash, token] of tokens) this.live.set(hash, token);
    this.filled = true;
  }

  added(hash: string, token: Token): void {
    if (this.filled) this.live.set(hash, token);
  }

  revoked(id: string): void {
    for (const [hash, token] of this.live) if (token.id === id) this.live.delete(hash);
  }

  /** By the worker, with the store's answer to a token check: whether the store shares this module. */
  storeAnswered(isolate: string): void {
    this.shared = this.filled && isolate === thisIsolate();
  }

  /** The live token with this hash as of `now` (null: none), or undefined when the store must be asked. */
  lookup(hash: string, now: number): Token | null | undefined {
    if (!this.shared) return undefined;
    const token = this.live.get(hash);
    return token && (token.expires_at === null || token.expires_at > now) ? token : null;
  }
}

const caches = new Map<string, TokenCache>();

/** The token cache of the store named `storeKey` in this isolate; made at first use. */
export function tokenCache(storeKey: string): TokenCache {
  let cache = caches.get(storeKey);
  if (!cache) caches.set(storeKey, (cache = new TokenCache()));
  return cache;
}
