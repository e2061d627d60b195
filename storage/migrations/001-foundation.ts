import type { Migration } from './migrate';

export const foundationMigration: Migration = {
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
};
