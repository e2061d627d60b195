import type { Migration } from './migrate';

/**
 * The audit key start (storage/audit/key-start.ts): the first form 2 entry, or for a log that has
 * none yet (a new store, or one from before migration 5) the next seq it will write. Written unsigned
 * here; the start that applies this migration signs it (storage/store.ts).
 */
export const auditKeyStartMigration: Migration = {
  id: 6,
  name: 'audit key start: the first seq written under the signing key',
  statements: [
    `INSERT INTO meta (key, value) SELECT 'audit_key_start', json_object('seq', coalesce(
       (SELECT min(seq) FROM audit_log WHERE v <> 1),
       (SELECT max(seq) + 1 FROM audit_log),
       (SELECT seq + 1 FROM audit_checkpoint WHERE id = 1),
       1))`,
  ],
};
