import type { Migration } from './migrate';

export const auditMigration: Migration = {
  id: 2,
  name: 'audit anchors and filter indexes',
  statements: [
    // One row per sealed UTC day: its last seq, the head hash there, and an HMAC over both under the audit key.
    `CREATE TABLE audit_anchor (
      day TEXT PRIMARY KEY, seq INTEGER NOT NULL, hash TEXT NOT NULL, mac TEXT NOT NULL, created_at INTEGER NOT NULL)`,
    // The checkpoint is MACed too, or deleting the oldest rows and moving the checkpoint would pass verify.
    `ALTER TABLE audit_checkpoint ADD COLUMN mac TEXT`,
    // Each index ends in the rowid (seq), so a filter walks newest first without sorting.
    `CREATE INDEX audit_log_ts ON audit_log (ts)`,
    `CREATE INDEX audit_log_category ON audit_log (category)`,
    `CREATE INDEX audit_log_action ON audit_log (action)`,
    `CREATE INDEX audit_log_source ON audit_log (source)`,
    `CREATE INDEX audit_log_actor_type ON audit_log (actor_type)`,
    `CREATE INDEX audit_log_entity_id ON audit_log (entity_id)`,
    `CREATE INDEX audit_log_entity_no ON audit_log (entity_no)`,
    `CREATE INDEX audit_log_result ON audit_log (result)`,
  ],
};
