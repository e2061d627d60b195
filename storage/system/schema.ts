import { z } from 'zod';

/** Facts about the store itself. */
export const StoreInfo = z.object({
  store_id: z.string(),
  db_version: z.int(),
  vault: z.object({ state: z.string(), reason: z.string().nullable() }),
});
export type StoreInfo = z.output<typeof StoreInfo>;

/** The facts of a store that change only at its start (src/pipeline/store-facts.ts keeps the first answer). */
export const StoreFacts = StoreInfo.pick({ store_id: true, db_version: true });
export type StoreFacts = z.output<typeof StoreFacts>;

/** The answer of the reachability check. */
export const Reachability = z.object({ status: z.enum(['ok']), version: z.string() }).meta({ id: 'Reachability' });

export const Versions = z
  .object({ app_version: z.string(), api_version: z.int(), db_version: StoreInfo.shape.db_version })
  .meta({ id: 'Versions' });

/** The store's facts, with the disk, the vault and the address the API is served on. */
export const CoreStatus = z
  .object({
    mode: z.string(),
    reason: z.string().nullable(),
    warnings: z.array(z.string()),
    data_root: z.string(),
    store_id: StoreInfo.shape.store_id,
    disk: z.string(),
    disk_free_bytes: z.int().nullable(),
    db_version: StoreInfo.shape.db_version,
    vault: StoreInfo.shape.vault,
    api: z.object({ url: z.string(), port: z.int() }),
    browser: z.object({ path: z.string(), version: z.string() }).nullable().meta({
      description:
        "The browser a profile's run starts (docs/runs.md#the-browser); null, with a warning, when none was found.",
    }),
  })
  .meta({ id: 'CoreStatus' });
export type CoreStatus = z.output<typeof CoreStatus>;
