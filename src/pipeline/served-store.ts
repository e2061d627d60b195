import type { StoreClient, StoreFacts } from '../../storage/client';
import type { StoreMemory } from '../shared/store-memory';

/** A store as its object's pipeline serves it (src/object/store-object.ts). */
export interface ServedStore {
  /** Its families, each call a unit of work in its group commit. */
  client: StoreClient;
  /** What the store's handlers keep in memory: per store, never in module state. */
  memory: StoreMemory;
}

/**
 * The store's start-up facts (`db_version`, `store_id`), asked at first need and kept: they cannot
 * change while the store runs (see `System.facts`). A failed ask is not kept.
 */
export function committedStoreFacts(store: StoreClient): () => Promise<StoreFacts> {
  let known: Promise<StoreFacts> | undefined;
  return () =>
    (known ??= store.system.facts().catch((error: unknown) => {
      known = undefined;
      throw error;
    }));
}
