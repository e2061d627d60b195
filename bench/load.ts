/** Load runs with autocannon (in process) and sequential latency samples. */
import autocannon from 'autocannon';
import { countingFsyncs } from './fsyncs';

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Requests that failed or did not answer 2xx: any is reported next to the figure. */
  failed: number;
}

function figures(result: autocannon.Result): LoadFigures {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** Unmeasured load before every measured run: JIT, connection pools and caches warm up first. */
const WARMUP_SECONDS = 1;

/** One measured autocannon run after a warm-up at the same connections (an option its types lack). */
function run(options: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({
    ...options,
    warmup: { connections: options.connections, duration: WARMUP_SECONDS },
  } as autocannon.Options);
}

/** GET `url` at `connections` for `seconds`. */
export async function readLoad(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  return figures(await run({ url, headers, connections, duration: seconds }));
}

interface Global {
  name: string;
  revision: number;
}

/** The global a request in flight holds. */
interface Holding {
  global: Global;
}

/**
 * PUT /api/v1/automation/globals/{name} with expected_revision at `connections`, `seconds` long,
 * without a warm-up. Every request in flight holds one global from a pool of names and hands it
 * back with the revision the answer carries, so every write chains on the one before it (a lost or
 * reordered write would show up as a 409 and count as failed).
 */
async function writeRun(
  base: string,
  token: string,
  prefix: string,
  connections: number,
  seconds: number,
): Promise<{ result: autocannon.Result; globals: Global[] }> {
  const globals: Global[] = [];
  // A request that times out (its connection is dropped) keeps its global, so the pool grows
  // rather than ever giving one global to two requests in flight.
  const fresh = () => {
    const global = { name: `${prefix}_${globals.length}`, revision: 0 };
    globals.push(global);
    return global;
  };
  const free = Array.from({ length: connections }, fresh);
  const value = 'x'.repeat(64);
  // A base with a path (a team's `http://…/teams/<id>`) puts the API under it.
  const root = new URL(base).pathname.replace(/\/+$/, '');
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'PUT',
        setupRequest: (request, context) => {
          const global = free.pop() ?? fresh();
          (context as Holding).global = global;
          return {
            ...request,
            path: `${root}/api/v1/automation/globals/${global.name}`,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ value, expected_revision: global.revision }),
          };
        },
        onResponse: (status, body, context) => {
          const global = (context as Holding).global;
          if (status === 200) global.revision = (JSON.parse(body) as { revision: number }).revision;
          free.push(global);
        },
      },
    ],
  });
  return { result, globals };
}

/**
 * Audited writes at `connections`: a warm-up on globals of its own (requests still in flight when
 * a run ends keep their global), then the measured run. When `fsyncsOf` names the service's pid, a
 * second run of the same length follows with strace attached to its process tree, for the fsyncs
 * per acknowledged (2xx) write: strace attached to a running process cannot use its seccomp filter
 * and stops the process at every system call (sequential writes measured 1.9 → 10.4 ms p50 with it
 * attached), so it never runs during the measured run. Returns every global with the revision its
 * last acknowledged write gave.
 */
export async function writeLoad(
  base: string,
  token: string,
  prefix: string,
  connections: number,
  seconds: number,
  fsyncsOf: number | null,
): Promise<{ figures: LoadFigures; globals: Global[]; fsyncsPerWrite: number | null }> {
  const warm = await writeRun(base, token, `${prefix}_warm`, connections, WARMUP_SECONDS);
  const measured = await writeRun(base, token, prefix, connections, seconds);
  const counted =
    fsyncsOf === null
      ? null
      : await countingFsyncs(fsyncsOf, () => writeRun(base, token, `${prefix}_strace`, connections, seconds));
  return {
    figures: figures(measured.result),
    globals: [...warm.globals, ...measured.globals, ...(counted?.result.globals ?? [])],
    fsyncsPerWrite: counted === null ? null : counted.fsyncs / Math.max(1, counted.result.result['2xx']),
  };
}

/** Median and 99th percentile of `count` sequential runs of `fn` (ms) after a few unmeasured ones, stopping early after `seconds`. */
export async function sample(
  fn: () => Promise<void>,
  count: number,
  seconds: number,
): Promise<{ p50: number; p99: number; n: number }> {
  for (let i = 0; i < 5; i++) await fn();
  const times: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  while (times.length < count && performance.now() < deadline) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

/** p50 and p99 of latencies in ms (sorts them in place). */
export function percentiles(times: number[]): { p50: number; p99: number; n: number } {
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), n: times.length };
}

/** Latencies of `fn`, called one after another until `running` settles: what other clients see meanwhile. */
export async function sampleWhile<T>(
  running: Promise<T>,
  fn: () => Promise<void>,
): Promise<{ p50: number; p99: number; n: number }> {
  let settled = false;
  void running.finally(() => (settled = true)).catch(() => undefined);
  const times: number[] = [];
  while (!settled) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return percentiles(times);
}
