/**
 * `npm run soak [-- --seconds 60 --connections 50 --flood 20]`: mixed reads and writes against the
 * service as `npm start` runs it, beside a token-less flood from `--flood` other loopback addresses.
 * Passes when no request failed (no 5xx, no unexpected status, no connection error), resident
 * memory and open descriptors stayed flat, every line of the soak's own client reached the `api`
 * log (the flood's are bounded and may be dropped), and the audit chain verifies afterwards.
 */
import { readdirSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { apiClient, type ApiClient } from '../test/node/api-client';
import { processTree, rssBytes } from '../test/node/process-tree';
import { startService } from '../test/node/service';
import { apiLogTotals } from './api-log';
import { flood } from './flood';
import { FILES_LIMIT, growthVerdict, MEMORY_LIMIT, type Sample } from './growth';
import { pickOperation, type Operation } from './operations';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    flood: { type: 'string', default: '20' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const FLOOD_CLIENTS = Number(args.flood);

/** Open descriptors of these processes (a process gone meanwhile counts none). */
function openFiles(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    try {
      return sum + readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      return sum;
    }
  }, 0);
}
const SAMPLE_MS = 500;

interface Tally {
  requests: number;
  failures: Map<string, number>;
}

/** One connection: a loop of operations, each one awaited before the next (like one keep-alive client). */
async function connection(
  api: ApiClient,
  index: number,
  until: number,
  tally: Tally,
  perOp: Map<string, number>,
): Promise<void> {
  const state = { global: `soak_${index}`, revision: 0 };
  while (Date.now() < until) {
    const op: Operation = pickOperation();
    let failure: string | null;
    try {
      failure = await op.run(api, state);
    } catch (error) {
      failure = `connection error: ${(error as Error).cause ?? (error as Error).message}`;
    }
    tally.requests += 1;
    perOp.set(op.name, (perOp.get(op.name) ?? 0) + 1);
    if (failure) tally.failures.set(`${op.name}: ${failure}`, (tally.failures.get(`${op.name}: ${failure}`) ?? 0) + 1);
  }
}

async function main(): Promise<number> {
  const service = await startService('workerd');
  const pid = service.process.pid!;
  let stopped = false;
  try {
    // Every call of the soak's own client counted, to find each of its lines in the api log.
    const callApi = apiClient(service.port, service.token);
    let ownRequests = 0;
    const api: ApiClient = (path, init) => {
      ownRequests += 1;
      return callApi(path, init);
    };
    const rss: Sample[] = [];
    const files: Sample[] = [];
    const started = Date.now();
    const sample = () => {
      const tree = processTree(pid);
      rss.push({ at: Date.now() - started, value: rssBytes(tree) });
      files.push({ at: Date.now() - started, value: openFiles(tree) });
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    const tally: Tally = { requests: 0, failures: new Map() };
    const perOp = new Map<string, number>();
    const until = started + SECONDS * 1000;
    const [flooded] = await Promise.all([
      flood(service.port, FLOOD_CLIENTS, until),
      ...Array.from({ length: CONNECTIONS }, (_, i) => connection(api, i, until, tally, perOp)),
    ]);
    clearInterval(sampler);
    sample();
    const elapsed = (Date.now() - started) / 1000;
    for (const [what, count] of flooded.failures) tally.failures.set(what, count);

    const verify = await api('/api/v1/audit/verify');
    // The stop writes the buffered api lines: only then is the log whole.
    await service.stop();
    stopped = true;
    const log = apiLogTotals(service.dataRoot);
    const ownLines = log.linesByIp.get('127.0.0.1') ?? 0;
    const floodLines = [...log.linesByIp]
      .filter(([ip]) => ip.startsWith('127.0.2.'))
      .reduce((sum, [, n]) => sum + n, 0);

    const memory = growthVerdict(rss, MEMORY_LIMIT);
    const descriptors = growthVerdict(files, FILES_LIMIT);
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    const perMinute = (n: number) => Math.round((n / elapsed) * 60);
    console.log(
      `soak: ${SECONDS} s at ${CONNECTIONS} connections, beside a token-less flood from ${FLOOD_CLIENTS} addresses, against npm start (launcher + workerd)`,
    );
    console.log(
      `requests: ${tally.requests} (${Math.round(tally.requests / elapsed)} req/s); by operation: ${[...perOp].map(([k, v]) => `${k} ${v}`).join(', ')}`,
    );
    console.log(`flood: ${flooded.sent} requests (${Math.round(flooded.sent / elapsed)} req/s)`);
    console.log(`failures: ${tally.failures.size === 0 ? 'none' : ''}`);
    for (const [what, count] of tally.failures) console.log(`  ${count} × ${what}`);
    console.log(
      `memory (RSS of all service processes): first ${mb(memory.first)}, after warm-up ${mb(memory.settled)}, last ${mb(memory.last)}, max ${mb(memory.max)}; growth after warm-up ${mb(memory.growth)} (limit ${mb(memory.limit)})`,
    );
    console.log(
      `open descriptors (launcher + workerd): first ${descriptors.first}, after warm-up ${descriptors.settled}, last ${descriptors.last}, max ${descriptors.max}; growth after warm-up ${descriptors.growth} (limit ${descriptors.limit})`,
    );
    console.log(
      `api log: ${log.bytes} bytes (${perMinute(log.bytes)} bytes/min); own client ${ownLines} lines of ${ownRequests} requests; flood ${floodLines} lines of ${flooded.sent} requests, ${flooded.sent - floodLines} dropped (${log.reportedDrops} reported by the service's WARN lines, written once a minute)`,
    );
    console.log(`audit verify: ${JSON.stringify(verify.json)}`);
    const ownLinesKept = ownLines >= ownRequests;
    if (!ownLinesKept) console.log(`api log: ${ownRequests - ownLines} lines of the soak's own client missing`);
    const ok =
      tally.failures.size === 0 &&
      memory.flat &&
      descriptors.flat &&
      ownLinesKept &&
      verify.status === 200 &&
      verify.json.ok === true;
    console.log(ok ? 'soak: PASS' : 'soak: FAIL');
    return ok ? 0 : 1;
  } finally {
    if (!stopped) await service.stop();
    rmSync(service.dataRoot, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
