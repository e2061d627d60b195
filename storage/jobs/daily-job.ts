import type { HostPort } from '../../src/host/port';
import type { Store } from '../store';

/** A job of the daily run; it reports what it did, for the jobs log. */
export interface DailyJob {
  name: string;
  run(store: Store, host: HostPort, now: number): Promise<Record<string, unknown>> | Record<string, unknown>;
}

/** What one job of a run did, or why it failed. */
export interface JobReport {
  name: string;
  ok: boolean;
  result: Record<string, unknown>;
}
