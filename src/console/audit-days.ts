import type { Answer } from './api';

type AuditResult = Answer<'GET', '/api/v1/audit'>['items'][number]['result'];

const DAY_MS = 24 * 3600 * 1000;

export interface DayCount {
  /** The UTC day, `YYYY-MM-DD`: the day the audit log's own anchors seal. */
  day: string;
  ok: number;
  denied: number;
  error: number;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Entries per UTC day and result, for every day of the window that ends on `now`'s day and spans
 * `days` days (empty days included, oldest first). Entries outside the window are not counted.
 */
export function countPerDay(
  entries: readonly { ts: number; result: AuditResult }[],
  days: number,
  now: number,
): DayCount[] {
  const last = Math.floor(now / DAY_MS);
  const counts = Array.from(
    { length: days },
    (_, i): DayCount => ({ day: dayOf((last - days + 1 + i) * DAY_MS), ok: 0, denied: 0, error: 0 }),
  );
  for (const entry of entries) {
    const index = Math.floor(entry.ts / DAY_MS) - (last - days + 1);
    const slot = counts[index];
    if (slot) slot[entry.result]++;
  }
  return counts;
}

/** The start (epoch ms, a UTC midnight) of the window `countPerDay` counts. */
export function windowStart(days: number, now: number): number {
  return (Math.floor(now / DAY_MS) - days + 1) * DAY_MS;
}
