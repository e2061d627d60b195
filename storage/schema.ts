import type { Migration } from './migrations';

/** Every schema change, in order. A migration is never edited once landed: add a new one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'foundation',
    statements: [
      `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
      `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
      `CREATE TABLE tokens (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, scopes TEXT NOT NULL, admin INTEGER NOT NULL,
        hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, expires_at INTEGER, revoked_at INTEGER)`,
      `CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ts INTEGER NOT NULL,
        actor_type TEXT NOT NULL, actor_id TEXT, actor_label TEXT NOT NULL, source TEXT NOT NULL,
        action TEXT NOT NULL, category TEXT NOT NULL, entity_type TEXT, entity_id TEXT, entity_no INTEGER,
        result TEXT NOT NULL, error_code TEXT, details TEXT, request_id TEXT, hash TEXT NOT NULL)`,
      // The hash at the retention cut, so that verification can start from there once older rows are gone.
      `CREATE TABLE audit_checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL)`,
    ],
  },
  {
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
  },
];
