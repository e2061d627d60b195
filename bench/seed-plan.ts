/** What bench/bun/seed.ts writes, shared with the figures that read it back. */

/** Globals the seeded writes are spread over: a page filtered by entity_id finds 1/1000 of them. */
export const SEED_GLOBALS = 1_000;
/** The two actions the export figure reads back, one export response each. */
export const EXPORT_ACTIONS = ['globals.read', 'globals.delete'] as const;
/** The entity_id the filtered page asks for. */
export const SEED_ENTITY = 'bench_7';
