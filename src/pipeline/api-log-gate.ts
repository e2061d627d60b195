import type { LogRecord } from '../shared/logs/line';

export interface LogGateLimits {
  /** Bytes of `api` lines (as JSON) that requests of unknown clients may add per window, all of them together. */
  anonymousBytes: number;
  windowMs: number;
}

export const API_LOG_GATE_LIMITS: LogGateLimits = { anonymousBytes: 256 * 1024, windowMs: 60_000 };

/**
 * Bounds what a flood adds to the `api` log. A request that authenticated, or that comes from an
 * address that authenticated within the last hour (the throttle's known addresses: the user's own
 * clients), is always logged. Requests of every other client (no valid token, an address not seen
 * with one) share one budget of bytes per window, as they share one budget of failures in the
 * throttle: rotating addresses buys nothing. Beyond it their lines are dropped and counted, and the
 * next line after the window carries a WARN line with the count, so the buffer is never filled by
 * a flood and no other client's line is pushed out.
 */
export class ApiLogGate {
  private windowStart = 0;
  private used = 0;
  private dropped = { lines: 0, bytes: 0 };

  constructor(private readonly limits: LogGateLimits = API_LOG_GATE_LIMITS) {}

  /** The lines to buffer for this request's line: none when dropped; a count of earlier drops before it. */
  admit(record: LogRecord, trusted: boolean, now: number): LogRecord[] {
    const report = this.rollOver(record, now);
    if (trusted) return [...report, record];
    const bytes = JSON.stringify(record).length;
    if (this.used + bytes > this.limits.anonymousBytes) {
      this.dropped.lines += 1;
      this.dropped.bytes += bytes;
      return report;
    }
    this.used += bytes;
    return [...report, record];
  }

  /** Starts a new window when the current one has ended; the WARN line for what it dropped, if anything. */
  private rollOver(record: LogRecord, now: number): LogRecord[] {
    if (now - this.windowStart < this.limits.windowMs) return [];
    this.windowStart = now;
    this.used = 0;
    const { lines, bytes } = this.dropped;
    if (lines === 0) return [];
    this.dropped = { lines: 0, bytes: 0 };
    return [
      {
        ts: record.ts,
        level: 'warn',
        message: 'api log lines of unknown clients dropped',
        fields: { count: lines, bytes },
      },
    ];
  }
}
