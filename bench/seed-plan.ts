/** What bench/bun/seed.ts writes, shared with the figures that read it back. */

/** Globals the seeded writes are spread over: a page filtered by entity_id finds 1/1000 of them. */
export const SEED_GLOBALS = 1_000;
/**
 * The actions the export figure reads back, one export response each. An export holds at most
 * 50,000 entries and 16 MiB; 50,000 seeded entries (about 340 bytes each as JSONL) pass 16 MiB, so
 * 100,000 entries are exported as four responses of 25,000.
 */
export const EXPORT_ACTIONS = ['globals.read', 'globals.delete', 'flows.create', 'flows.delete'] as const;
/** The entity_id the filtered page asks for. */
export const SEED_ENTITY = 'bench_7';
