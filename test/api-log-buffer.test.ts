import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogRecord } from '../src/shared/logs/line';
import { LogBuffer, type LogBufferLimits } from '../src/pipeline/api-log-buffer';

const line = (n: number): LogRecord => ({ ts: 1_700_000_000_000 + n, level: 'info', message: `GET /${n}` });

/** A buffer over a recording host; `kept` are the promises its lines asked to keep alive. */
function buffered(limits: Partial<LogBufferLimits>) {
  const writes: LogRecord[][] = [];
  const kept: Promise<unknown>[] = [];
  const host = { down: false };
  const buffer = new LogBuffer(
    async (records) => {
      if (host.down) throw new Error('host down');
      writes.push(records);
    },
    { maxLines: 1000, maxBytes: 256 * 1024, delayMs: 0, ...limits },
  );
  const add = (...numbers: number[]) => numbers.forEach((n) => buffer.add(line(n), (work) => kept.push(work)));
  /** Waits for the writes (and timers) that the lines started; only for short delays. */
  const settle = async () => {
    while (kept.length > 0) await kept.shift();
  };
  return { buffer, writes, add, settle, kept, host };
}

/** The buffer logs each refused write; a test of a host that is down takes those lines instead of printing them. */
function refusalsLogged() {
  return vi.spyOn(console, 'error').mockImplementation(() => {});
}

/** Every line logged said that the host refused a write. */
function expectOnlyRefusals(logged: ReturnType<typeof refusalsLogged>) {
  expect(logged).toHaveBeenCalled();
  for (const args of logged.mock.calls) expect(args).toEqual(['api log write failed:', 'Error: host down']);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the api log buffer', () => {
  it('writes the lines of many requests in one batch, in order', async () => {
    const { writes, add, settle, kept } = buffered({});
    add(1, 2, 3);
    expect(kept).toHaveLength(1); // one timer for the batch, not one write per line
    await settle();
    expect(writes).toEqual([[line(1), line(2), line(3)]]);
  });

  it('writes a full buffer at once, and lines that arrive meanwhile in the next batch', async () => {
    const { buffer, writes, add } = buffered({ maxLines: 2, delayMs: 60_000 });
    add(1, 2, 3, 4);
    await buffer.flush();
    expect(writes).toEqual([
      [line(1), line(2)],
      [line(3), line(4)],
    ]);
  });

  it('writes what it holds on flush, without waiting for the timer', async () => {
    const { buffer, writes, add } = buffered({ delayMs: 60_000 });
    add(1, 2);
    await buffer.flush();
    expect(writes).toEqual([[line(1), line(2)]]);
  });

  it('keeps the lines the host refused, drops the oldest beyond the bound and says how many', async () => {
    const { writes, add, settle, host } = buffered({ maxLines: 3, delayMs: 0 });
    const logged = refusalsLogged();
    host.down = true;
    add(1, 2, 3); // full: written at once, and refused; the lines wait in the buffer
    await settle();
    expect(writes).toEqual([]);
    host.down = false;
    add(4); // line 1 no longer fits; the buffer is full again, and now the host takes it
    await settle();
    add(5);
    await settle();
    const warning: LogRecord = {
      ts: line(2).ts,
      level: 'warn',
      message: 'api log lines dropped',
      fields: { count: 1 },
    };
    expect(writes).toEqual([[warning, line(2), line(3), line(4)], [line(5)]]);
    expectOnlyRefusals(logged);
  });

  it('bounds the bytes it holds as well as the lines', async () => {
    const size = JSON.stringify(line(1)).length;
    const { buffer, writes, add, host } = buffered({ maxBytes: size * 2, delayMs: 60_000 });
    const logged = refusalsLogged();
    host.down = true;
    add(1, 2); // full by bytes: written at once, and refused
    await buffer.flush();
    host.down = false;
    add(3);
    await buffer.flush();
    expect(writes.flat().map((record) => record.message)).toEqual(['api log lines dropped', 'GET /2', 'GET /3']);
    expectOnlyRefusals(logged);
  });
});
