import type { Migration } from './migrate';

/**
 * The witness keyed by the team link (storage/witness, docs/teams.md#audit-across-machines): a
 * machine that leaves one team and joins another keeps what it saw of the first, and never compares
 * the second against it. Rows of migration 8 belonged to whichever team the machine was in then,
 * which the store cannot tell: they are kept under the team `''`, which no link ever is.
 */
export const witnessPerTeamMigration: Migration = {
  id: 9,
  name: 'witness-per-team',
  statements: [
    `CREATE TABLE team_heads_by_team (
      team TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL, seen_at INTEGER NOT NULL,
      PRIMARY KEY (team, seq, hash)) WITHOUT ROWID`,
    `INSERT INTO team_heads_by_team (team, seq, hash, seen_at) SELECT '', seq, hash, seen_at FROM team_heads`,
    'DROP TABLE team_heads',
    'ALTER TABLE team_heads_by_team RENAME TO team_heads',
    `CREATE TABLE team_checkpoints (
      team TEXT PRIMARY KEY, key_id TEXT NOT NULL, public_key_pem TEXT NOT NULL,
      checkpoint TEXT NOT NULL, pinned_at INTEGER NOT NULL, fetched_at INTEGER NOT NULL)`,
    `INSERT INTO team_checkpoints (team, key_id, public_key_pem, checkpoint, pinned_at, fetched_at)
      SELECT '', key_id, public_key_pem, checkpoint, pinned_at, fetched_at FROM team_checkpoint`,
    'DROP TABLE team_checkpoint',
  ],
};
