import type { Migration } from './migrate';

/**
 * What a machine joined to a team has seen of the team's audit chain (storage/witness): the heads its
 * forwarded requests were answered with, and the newest signed checkpoint with the key it pinned.
 * A solo store, and a team's own store, keep both empty.
 */
export const teamWitnessMigration: Migration = {
  id: 8,
  name: 'team-witness',
  statements: [
    `CREATE TABLE team_heads (
      seq INTEGER NOT NULL, hash TEXT NOT NULL, seen_at INTEGER NOT NULL, PRIMARY KEY (seq, hash)) WITHOUT ROWID`,
    `CREATE TABLE team_checkpoint (
      id INTEGER PRIMARY KEY CHECK (id = 1), key_id TEXT NOT NULL, public_key_pem TEXT NOT NULL,
      checkpoint TEXT NOT NULL, pinned_at INTEGER NOT NULL, fetched_at INTEGER NOT NULL)`,
  ],
};
