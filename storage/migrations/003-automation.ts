import type { Migration } from './migrate';

export const automationMigration: Migration = {
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
};
