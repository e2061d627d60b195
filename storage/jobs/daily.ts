import type { HostPort } from '../../src/host/port';
import { DAY_MS } from '../../src/shared/time';
import { AUDIT_JOBS } from './audit-jobs';
import type { DailyJob, JobReport } from './daily-job';
import { jobLogRecords } from './jobs-log';
import { logRetentionJob } from './log-retention';
import type { Store } from '../store';

/** Every job of the daily run, in order. A family adds its job here. */
export const DAILY_JOBS: readonly DailyJob[] = [...AUDIT_JOBS, logRetentionJob];

/** A few seconds past UTC midnight, so the day that just ended is complete. */
const AFTER_MIDNIGHT_MS = 5_000;

export function nextDailyRun(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS + DAY_MS + AFTER_MIDNIGHT_MS;
}

/** Runs every job; one job's failure is reported and does not stop the others. What they did goes to the jobs log. */
export async function runDailyJobs(store: Store, host: HostPort, now: number): Promise<JobReport[]> {
  const startedAt = Date.now();
  const reports: JobReport[] = [];
  for (const job of DAILY_JOBS) {
    try {
      reports.push({ name: job.name, ok: true, result: await job.run(store, host, now) });
    } catch (error) {
      reports.push({ name: job.name, ok: false, result: { error: String(error) } });
    }
  }
  await host.logs
    .append('jobs', jobLogRecords(reports, startedAt))
    .catch((error: unknown) => console.error('jobs log write failed:', String(error)));
  return reports;
}
