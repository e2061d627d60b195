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
    id: 3,
    name: 'automation',
    statements: [
      // Pieces of sealed text too large for one row (storage/chunks.ts).
      `CREATE TABLE automation_chunks (owner TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (owner, seq))`,
      // A deleted global stays as a tombstone (deleted = 1) so that its revisions keep counting up.
      `CREATE TABLE automation_globals (
        name TEXT PRIMARY KEY, revision INTEGER NOT NULL, bytes INTEGER NOT NULL, updated_at INTEGER NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0)`,
      `CREATE TABLE automation_flows (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, group_name TEXT, description TEXT, is_template INTEGER NOT NULL,
        dependencies TEXT NOT NULL, step_count INTEGER NOT NULL, value_count INTEGER NOT NULL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE TABLE automation_shares (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        max_uses INTEGER NOT NULL, uses INTEGER NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
        include_secrets INTEGER NOT NULL, key_check TEXT NOT NULL, revoked_at INTEGER)`,
      `CREATE TABLE automation_share_tickets (
        ticket TEXT PRIMARY KEY, share_id TEXT NOT NULL, key_sealed TEXT, expires_at INTEGER NOT NULL, used_at INTEGER)`,
      `CREATE INDEX automation_share_tickets_share ON automation_share_tickets (share_id)`,
    ],
  },
];
