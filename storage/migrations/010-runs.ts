import type { Migration } from './migrate';

/**
 * The runs of profiles' browsers (storage/runs): one row per start, its state kept in step with the
 * host's process. A run's endpoint secret is never stored: the host holds it.
 */
export const runsMigration: Migration = {
  id: 10,
  name: 'runs',
  statements: [
    `CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      profile_id TEXT NOT NULL,
      state TEXT NOT NULL,
      headless INTEGER NOT NULL,
      debug_port INTEGER,
      browser_version TEXT,
      pid INTEGER,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      end_reason TEXT,
      exit_code INTEGER,
      error TEXT)`,
    'CREATE INDEX runs_by_profile ON runs (profile_id, started_at)',
    `CREATE INDEX runs_live ON runs (state) WHERE state IN ('starting', 'running', 'stopping')`,
  ],
};
