import { describe, expect, it } from 'vitest';
import { LogBuffer } from '../src/pipeline/api-log-buffer';
import { ApiLogGate } from '../src/pipeline/api-log-gate';
import type { LogRecord } from '../src/shared/logs/line';

const line = (ts: number, who: string): LogRecord => ({
  ts,
  level: 'info',
  message: `GET /api/v1/version`,
  fields: { status: 401, actor: who },
});

describe('the api log during a flood of unknown clients', () => {
  it("keeps every line of the user's own clients, bounds the flood's bytes per window, and counts what it dropped", async () => {
    const written: LogRecord[] = [];
    const kept: Promise<unknown>[] = [];
    // The buffer as the service runs it, but small: a flood that reached it would push lines out.
    const buffer = new LogBuffer(async (records) => void written.push(...records), {
      maxLines: 200,
      maxBytes: 20_000,
      delayMs: 0,
    });
    const gate = new ApiLogGate({ anonymousBytes: 10_000, windowMs: 60_000 });
    const add = (record: LogRecord, trusted: boolean) =>
      gate.admit(record, trusted, record.ts).forEach((r) => buffer.add(r, (w) => kept.push(w)));
    let flood = 0;
    for (let n = 0; n < 20_000; n++) {
      add(line(n, 'anonymous'), false);
      flood += 1;
      if (n % 100 === 0) add(line(n, 'user'), true);
      if (n % 500 === 0) while (kept.length > 0) await kept.shift();
    }
    add(line(60_000, 'user'), true);
    while (kept.length > 0) await kept.shift();
    await buffer.flush();

    expect(written.filter((r) => r.fields?.actor === 'user')).toHaveLength(201);
    const admitted = written.filter((r) => r.fields?.actor === 'anonymous');
    expect(admitted.reduce((sum, r) => sum + JSON.stringify(r).length, 0)).toBeLessThanOrEqual(10_000);
    const report = written.find((r) => r.message === 'api log lines of unknown clients dropped');
    expect(report?.fields?.count).toBe(flood - admitted.length);
    // The buffer itself dropped nothing.
    expect(written.some((r) => r.message === 'api log lines dropped')).toBe(false);
  });
});
