import type { LogRecord } from '../shared/logs/line';

export interface LogBufferLimits {
  /** The most lines held; a batch of this many is written at once. */
  maxLines: number;
  /** The most bytes (of the lines as JSON) held; as many make a batch written at once. */
  maxBytes: number;
  /** How long the first line of a batch waits for others before the batch is written. */
  delayMs: number;
}

export const API_LOG_LIMITS: LogBufferLimits = { maxLines: 1000, maxBytes: 256 * 1024, delayMs: 500 };

/**
 * The `api` log lines of this isolate, written to the host in batches: one subrequest carries up to
 * `maxLines` lines, written at most `delayMs` after the first of them (or at once when the buffer is
 * full), in the order of the requests. One write is in flight at a time, so batches arrive in order.
 *
 * Memory is bounded: when the host does not take the lines (it is down, say), the batch goes back to
 * the front of the buffer, and beyond the limits the oldest lines are dropped and counted; the next
 * batch written starts with a WARN line `api log lines dropped count=<n>`. A clean stop calls `flush`.
 *
 * Under workerd every write runs in the request context that started it, kept alive by that request's
 * `waitUntil`; no promise of one request is awaited by another.
 */
export class LogBuffer {
  private lines: { record: LogRecord; bytes: number }[] = [];
  private bytes = 0;
  private dropped = 0;
  private timerSet = false;
  private writing = false;

  constructor(
    private readonly write: (records: LogRecord[]) => Promise<void>,
    private readonly limits: LogBufferLimits = API_LOG_LIMITS,
  ) {}

  /** Buffers one line; `keepAlive` holds the write that this line starts (waitUntil). */
  add(record: LogRecord, keepAlive: (work: Promise<unknown>) => void): void {
    this.hold([{ record, bytes: JSON.stringify(record).length }], 'back');
    if (this.writing) return; // the write in flight takes these lines next
    if (this.isFull()) keepAlive(this.drain());
    else if (!this.timerSet) {
      this.timerSet = true;
      keepAlive(
        new Promise((resolve) => setTimeout(resolve, this.limits.delayMs)).then(() => {
          this.timerSet = false;
          return this.drain();
        }),
      );
    }
  }

  /** Writes everything buffered now, waiting for a write in flight first; for a clean stop. */
  async flush(): Promise<void> {
    // Polled, not awaited: the write in flight may belong to another request's context.
    while (this.writing) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.drain();
  }

  private isFull(): boolean {
    return this.lines.length >= this.limits.maxLines || this.bytes >= this.limits.maxBytes;
  }

  private hold(lines: { record: LogRecord; bytes: number }[], end: 'front' | 'back'): void {
    if (end === 'back') this.lines.push(...lines);
    else this.lines.unshift(...lines);
    for (const line of lines) this.bytes += line.bytes;
    while (this.lines.length > this.limits.maxLines || (this.bytes > this.limits.maxBytes && this.lines.length > 1)) {
      this.bytes -= this.lines.shift()!.bytes;
      this.dropped++;
    }
  }

  /** Writes batches until the buffer is empty or the host refuses one (which then waits for the next line). */
  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.lines.length > 0) {
        const batch = this.lines.splice(0, this.limits.maxLines);
        for (const line of batch) this.bytes -= line.bytes;
        const dropped = this.dropped;
        this.dropped = 0;
        const records = batch.map((line) => line.record);
        const warning: LogRecord[] =
          dropped > 0
            ? [{ ts: records[0]!.ts, level: 'warn', message: 'api log lines dropped', fields: { count: dropped } }]
            : [];
        try {
          await this.write([...warning, ...records]);
        } catch (error) {
          this.dropped += dropped;
          this.hold(batch, 'front');
          console.error('api log write failed:', String(error));
          return;
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
