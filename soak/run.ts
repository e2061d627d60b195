/**
 * `npm run soak [-- --seconds 60 --connections 50]`: mixed reads and writes against the service as
 * `npm start` runs it. Passes when no request failed (no 5xx, no unexpected status, no connection
 * error), resident memory stayed flat, and the audit chain verifies afterwards.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { apiClient, type ApiClient } from '../test/node/api-client';
import { processTree, rssBytes } from '../test/node/process-tree';
import { startService } from '../test/node/service';
import { memoryVerdict, type MemorySample } from './memory';
import { pickOperation, type Operation } from './operations';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '50' } },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const SAMPLE_MS = 500;

interface Tally {
  requests: number;
  failures: Map<string, number>;
}

/** One connection: a loop of operations, each one awaited before the next (like one keep-alive client). */
async function connection(api: ApiClient, index: number, until: number, tally: Tally, perOp: Map<string, number>): Promise<void> {
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
  try {
    const api = apiClient(service.port, service.token);
    const samples: MemorySample[] = [];
    const started = Date.now();
    const sample = () => samples.push({ at: Date.now() - started, rss: rssBytes(processTree(pid)) });
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    const tally: Tally = { requests: 0, failures: new Map() };
    const perOp = new Map<string, number>();
    const until = started + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => connection(api, i, until, tally, perOp)));
    clearInterval(sampler);
    sample();
    const elapsed = (Date.now() - started) / 1000;

    const verify = await api('/api/v1/audit/verify');
    const memory = memoryVerdict(samples);
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    console.log(`soak: ${SECONDS} s at ${CONNECTIONS} connections against npm start (launcher + workerd)`);
    console.log(`requests: ${tally.requests} (${Math.round(tally.requests / elapsed)} req/s); by operation: ${[...perOp].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`failures: ${tally.failures.size === 0 ? 'none' : ''}`);
    for (const [what, count] of tally.failures) console.log(`  ${count} × ${what}`);
    console.log(`memory (RSS of all service processes): first ${mb(memory.first)}, after warm-up ${mb(memory.settled)}, last ${mb(memory.last)}, max ${mb(memory.max)}; growth after warm-up ${mb(memory.growth)} (limit ${mb(memory.limit)})`);
    console.log(`audit verify: ${JSON.stringify(verify.json)}`);
    const ok = tally.failures.size === 0 && memory.flat && verify.status === 200 && verify.json.ok === true;
    console.log(ok ? 'soak: PASS' : 'soak: FAIL');
    return ok ? 0 : 1;
  } finally {
    await service.stop();
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
