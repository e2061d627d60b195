import type { Migration } from './migrate';

/**
 * Flow runs (storage/flow-runs): a job per run request, a row per profile it runs on. No value or
 * secret of a run is stored: they stay in the running job's memory and are resolved at each step.
 */
export const flowRunsMigration: Migration = {
  id: 13,
  name: 'flow-runs',
  statements: [
    `CREATE TABLE flow_jobs (
      id TEXT PRIMARY KEY,
      flow_id TEXT NOT NULL,
      state TEXT NOT NULL,
      headless INTEGER NOT NULL,
      stop_after INTEGER NOT NULL,
      step_count INTEGER NOT NULL,
      cancel_requested INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      created_at INTEGER NOT NULL,
      ended_at INTEGER)`,
    'CREATE INDEX flow_jobs_by_time ON flow_jobs (created_at)',
    `CREATE INDEX flow_jobs_live ON flow_jobs (state) WHERE state = 'running'`,
    `CREATE TABLE flow_job_profiles (
      job_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      profile_id TEXT NOT NULL,
      state TEXT NOT NULL,
      step INTEGER,
      step_type TEXT,
      run_id TEXT,
      started_browser INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      started_at INTEGER,
      ended_at INTEGER,
      PRIMARY KEY (job_id, position))`,
  ],
};
