import { ApiError } from '../../src/shared/errors/api-error';
import { type AuditContext, SYSTEM_ACTOR } from '../audit/entry';
import type { StoreContext } from '../context';
import type { FlowJob, FlowJobError, FlowJobProfile, FlowJobProfileState, FlowJobState } from './schema';

interface JobRow {
  id: string;
  flow_id: string;
  state: FlowJobState;
  headless: number;
  stop_after: number;
  step_count: number;
  cancel_requested: number;
  error: string | null;
  created_at: number;
  ended_at: number | null;
}

interface ProfileRow {
  job_id: string;
  position: number;
  profile_id: string;
  state: FlowJobProfileState;
  step: number | null;
  step_type: string | null;
  run_id: string | null;
  started_browser: number;
  error: string | null;
  started_at: number | null;
  ended_at: number | null;
}

/** What a profile's run says as it goes: its state, the step it is on, the browser it runs on. */
export type ProfileProgress = Partial<
  Pick<FlowJobProfile, 'state' | 'step' | 'step_type' | 'run_id' | 'started_browser' | 'started_at'>
>;

/** The states of a profile's run that have not ended. */
const OPEN_PROFILE_STATES = "('queued', 'starting', 'running')";
/** How many jobs the list answers, newest first. */
export const JOB_LIST_LIMIT = 50;

const toProfile = (row: ProfileRow): FlowJobProfile => ({
  profile_id: row.profile_id,
  state: row.state,
  step: row.step,
  step_type: row.step_type,
  run_id: row.run_id,
  started_browser: row.started_browser === 1,
  error: row.error === null ? null : (JSON.parse(row.error) as FlowJobError),
  started_at: row.started_at,
  ended_at: row.ended_at,
});

/**
 * The jobs of flow runs (docs/automation.md#runs). The store keeps each job's record and its audit
 * entries; the handler's job (handlers/flow-job.ts) runs the steps and reports here as it goes. A
 * profile is in at most one running job, since a job drives the profile's current tab.
 */
export class FlowRuns {
  constructor(private readonly ctx: StoreContext) {}

  /** A new job, `running`, its profiles `queued`; audited as its start. `flows.profile_busy` when a profile is in a running job. */
  begin(
    audit: AuditContext,
    job: Pick<FlowJob, 'id' | 'flow_id' | 'headless' | 'stop_after' | 'step_count'> & { profile_ids: string[] },
  ): FlowJob {
    return this.ctx.change(
      audit,
      () => {
        const unknown = this.ctx.db
          .all<{ value: string }>(
            'SELECT value FROM json_each(?) WHERE value NOT IN (SELECT id FROM profiles) ORDER BY key',
            JSON.stringify(job.profile_ids),
          )
          .map((row) => row.value);
        if (unknown.length > 0) throw new ApiError('resource.not_found', { resource: 'profile', id: unknown[0] });
        const busy = this.ctx.db
          .all<{ profile_id: string }>(
            `SELECT DISTINCT p.profile_id FROM flow_job_profiles p JOIN flow_jobs j ON j.id = p.job_id
             WHERE j.state = 'running' AND p.state IN ${OPEN_PROFILE_STATES}
               AND p.profile_id IN (SELECT value FROM json_each(?)) ORDER BY p.profile_id`,
            JSON.stringify(job.profile_ids),
          )
          .map((row) => row.profile_id);
        if (busy.length > 0) throw new ApiError('flows.profile_busy', { profile_ids: busy });
        this.ctx.db.run(
          `INSERT INTO flow_jobs (id, flow_id, state, headless, stop_after, step_count, created_at)
           VALUES (?, ?, 'running', ?, ?, ?, ?)`,
          job.id,
          job.flow_id,
          job.headless ? 1 : 0,
          job.stop_after ? 1 : 0,
          job.step_count,
          this.ctx.now(),
        );
        this.ctx.db.run(
          `INSERT INTO flow_job_profiles (job_id, position, profile_id, state)
           SELECT ?, key, value, 'queued' FROM json_each(?)`,
          job.id,
          JSON.stringify(job.profile_ids),
        );
        return this.get(job.id);
      },
      (created) => ({
        entity_type: 'flow',
        entity_id: created.flow_id,
        details: { job_id: created.id, profiles: created.profiles.length, steps: created.step_count },
      }),
    );
  }

  get(id: string): FlowJob {
    const [row] = this.ctx.db.all<JobRow>('SELECT * FROM flow_jobs WHERE id = ?', id);
    if (!row) throw new ApiError('resource.not_found', { resource: 'job', id });
    return this.withProfiles(row);
  }

  /** The newest jobs first, at most JOB_LIST_LIMIT. */
  list(): FlowJob[] {
    return this.ctx.db
      .all<JobRow>('SELECT * FROM flow_jobs ORDER BY created_at DESC, rowid DESC LIMIT ?', JOB_LIST_LIMIT)
      .map((row) => this.withProfiles(row));
  }

  /** A profile's run moves on (not audited: its outcome is). */
  progress(jobId: string, position: number, progress: ProfileProgress): void {
    const fields = Object.entries(progress).map(([key, value]) => [
      key,
      typeof value === 'boolean' ? Number(value) : value,
    ]);
    if (fields.length === 0) return;
    this.ctx.db.run(
      `UPDATE flow_job_profiles SET ${fields.map(([key]) => `${key} = ?`).join(', ')} WHERE job_id = ? AND position = ?`,
      ...fields.map(([, value]) => value as string | number | null),
      jobId,
      position,
    );
  }

  /** A profile's run ended: its outcome, audited with the profile as subject. */
  profileEnded(
    audit: AuditContext,
    jobId: string,
    position: number,
    state: Extract<FlowJobProfileState, 'succeeded' | 'failed' | 'cancelled'>,
    error: FlowJobError | null,
  ): void {
    this.ctx.change(
      audit,
      () => {
        this.ctx.db.run(
          'UPDATE flow_job_profiles SET state = ?, error = ?, ended_at = ? WHERE job_id = ? AND position = ?',
          state,
          error === null ? null : JSON.stringify(error),
          this.ctx.now(),
          jobId,
          position,
        );
        return this.ctx.db.all<ProfileRow>(
          'SELECT * FROM flow_job_profiles WHERE job_id = ? AND position = ?',
          jobId,
          position,
        )[0]!;
      },
      (row) => ({
        entity_type: 'profile',
        entity_id: row.profile_id,
        details: { job_id: jobId, state, step: row.step, error: error?.code ?? null },
      }),
    );
  }

  /** Asks a running job to stop after the step each profile is on; `flows.job_ended` when it has ended. */
  cancel(audit: AuditContext, id: string): FlowJob {
    return this.ctx.change(
      audit,
      () => {
        const job = this.get(id);
        if (job.state !== 'running') throw new ApiError('flows.job_ended', { state: job.state });
        this.ctx.db.run('UPDATE flow_jobs SET cancel_requested = 1 WHERE id = ?', id);
        return this.get(id);
      },
      (job) => ({ entity_type: 'flow', entity_id: job.flow_id, details: { job_id: id } }),
    );
  }

  /** Every profile's run has ended: the job's own end, from theirs. */
  finish(id: string): FlowJob {
    const job = this.get(id);
    const state: FlowJobState = job.cancel_requested
      ? 'cancelled'
      : job.profiles.every((profile) => profile.state === 'succeeded')
        ? 'succeeded'
        : 'failed';
    this.ctx.db.run(
      "UPDATE flow_jobs SET state = ?, ended_at = ? WHERE id = ? AND state = 'running'",
      state,
      this.ctx.now(),
      id,
    );
    return this.get(id);
  }

  /**
   * Jobs a service before this one left running: their steps ran in that service's memory, which
   * is gone. Each is `failed` with the reason, and each profile still open with it too (audited as
   * that profile's outcome, by the system).
   */
  failLeftBehind(): void {
    const open = this.ctx.db.all<ProfileRow>(
      `SELECT p.* FROM flow_job_profiles p JOIN flow_jobs j ON j.id = p.job_id
       WHERE j.state = 'running' AND p.state IN ${OPEN_PROFILE_STATES}`,
    );
    const reason = 'the service stopped while the job ran';
    for (const row of open)
      this.profileEnded(
        { actor: SYSTEM_ACTOR, source: 'system', request_id: null, action: 'flow_runs.profile_end' },
        row.job_id,
        row.position,
        'failed',
        { code: 'flows.service_restarted', message: reason, step: row.step, step_type: row.step_type, flow_id: null },
      );
    this.ctx.db.run(
      "UPDATE flow_jobs SET state = 'failed', error = ?, ended_at = ? WHERE state = 'running'",
      reason,
      this.ctx.now(),
    );
  }

  private withProfiles(row: JobRow): FlowJob {
    const profiles = this.ctx.db
      .all<ProfileRow>('SELECT * FROM flow_job_profiles WHERE job_id = ? ORDER BY position', row.id)
      .map(toProfile);
    return {
      id: row.id,
      flow_id: row.flow_id,
      state: row.state,
      headless: row.headless === 1,
      stop_after: row.stop_after === 1,
      step_count: row.step_count,
      cancel_requested: row.cancel_requested === 1,
      error: row.error,
      created_at: row.created_at,
      ended_at: row.ended_at,
      profiles,
    };
  }
}
