import type { Migration } from './migrate';

/**
 * The leases of a team's profiles (storage/leases, docs/teams.md#runs-across-machines): one row per
 * profile, kept after a release or an expiry so that the next grant's fencing number is greater than
 * every one before it. Only a team's store writes it; a machine's stays empty.
 */
export const runLeasesMigration: Migration = {
  id: 14,
  name: 'run-leases',
  statements: [
    `CREATE TABLE run_leases (
      profile_id TEXT PRIMARY KEY,
      run_id TEXT NOT NULL,
      machine_id TEXT,
      machine_label TEXT NOT NULL,
      who TEXT NOT NULL,
      fencing INTEGER NOT NULL,
      since INTEGER NOT NULL,
      renewed_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      ended_at INTEGER)`,
  ],
};
