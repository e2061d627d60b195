import type { StoreClient, StoreFacts } from '../../storage/client';

/**
 * The store's start-up facts (`db_version`, `store_id`), asked at first need and kept: they cannot
 * change while the service runs (see `System.facts`), so `GET /api/v1/version` needs no store call
 * after the first in an isolate. A failed ask is not kept.
 */
export function startupFacts(store: StoreClient): () => Promise<StoreFacts> {
  let known: Promise<StoreFacts> | undefined;
  return () =>
    (known ??= store.system.facts().catch((error: unknown) => {
      known = undefined;
      throw error;
    }));
}
