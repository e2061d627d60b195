import type { Migration } from './migrate';

/**
 * The newest version of each team profile's browser data (storage/bundles, docs/teams.md#what-travels):
 * its parts are objects in the team's bucket, this row says which and what they add up to. Only a
 * team's store writes it; a machine's stays empty. A deleted profile's row goes with it
 * (storage/profiles), its parts with the team host's `forget`.
 */
export const profileBundlesMigration: Migration = {
  id: 15,
  name: 'profile-bundles',
  statements: [
    `CREATE TABLE profile_bundles (
      profile_id TEXT PRIMARY KEY,
      run_id TEXT NOT NULL,
      machine_label TEXT NOT NULL,
      fencing INTEGER NOT NULL,
      parts INTEGER NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      uploaded_at INTEGER NOT NULL)`,
  ],
};
