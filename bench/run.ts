/**
 * `npm run bench [-- --quick] [--only verify]`: figures of the service as `npm start` runs it, each next to a
 * reference measured in the same run on this machine, printed and written to bench/RESULTS.md.
 * `npm run bench -- --teams [--quick] [--seconds S] [--cells NxM,…]`: the team service instead (./teams.ts).
 * `npm run bench -- --team-edge [--quick] [--seconds S]`: a machine joined to a team against the team itself (./team-edge.ts).
 * `npm run bench -- --runs [--quick]`: profiles' browsers started through LPA against the same browser started directly (./runs.ts).
 * `npm run bench -- --team-runs [--quick]`: team profiles' leases and travelling browser data (./team-runs.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../test/node/service';
import { call, ok } from './api';
import { readLoad, sample, sampleWhile, writeLoad, type LoadFigures } from './load';
import { straceAvailable } from './fsyncs';
import { treeRss } from './memory';
import { bunScript, nodeHello, sqliteCommits, workerdHello, type Server } from './references';
import { printTable, writeResults, type Row } from './report';
import { benchRuns, RUNS_SECTIONS } from './runs';
import { EXPORT_ACTIONS, SEED_ENTITY } from './seed-plan';
import { benchTeamEdge } from './team-edge';
import { benchTeamRuns } from './team-runs';
import { benchTeams, parseCells } from './teams';

const quick = process.argv.includes('--quick');
/**
 * `--only verify`: just the verify figures, on a store seeded with the plan's audit entries (and few
 * profiles); `--runs --only roundtrip|atonce|proxy|cookies|sync|flows`: just that section of --runs (./runs.ts).
 */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const teams = process.argv.includes('--teams');
const teamEdge = process.argv.includes('--team-edge');
const runs = process.argv.includes('--runs');
const teamRuns = process.argv.includes('--team-runs');
const runsOnly = RUNS_SECTIONS.find((section) => section === only) ?? null;
if (runs ? only !== runsOnly : only !== null && only !== 'verify')
  throw new Error(`--only knows verify, and ${RUNS_SECTIONS.join(', ')} with --runs (not ${only})`);
/** `--seconds S` (with --teams or --team-edge): each run's length, to try it out quickly. */
const seconds = process.argv.includes('--seconds') ? Number(process.argv[process.argv.indexOf('--seconds') + 1]) : null;
if (seconds !== null && !(seconds > 0 && (teams || teamEdge)))
  throw new Error('--seconds takes a number of seconds above 0, and only with --teams or --team-edge');
/** `--cells 8x10,1x50` (with --teams): only these cells, printed and not written to bench/RESULTS.md. */
const cells = parseCells(
  process.argv.includes('--cells') ? (process.argv[process.argv.indexOf('--cells') + 1] ?? '') : null,
);
if (cells !== null && !teams) throw new Error('--cells goes with --teams');
const PLAN = quick
  ? {
      loadSeconds: 3,
      sqliteSeconds: 2,
      samples: 30,
      sampleSeconds: 5,
      profilesSmall: 1_000,
      profilesLarge: 10_000,
      audit: 100_000,
      exportPart: 2_500,
      limitMinutes: 5,
    }
  : {
      loadSeconds: 10,
      sqliteSeconds: 5,
      samples: 100,
      sampleSeconds: 20,
      profilesSmall: 1_000,
      profilesLarge: 100_000,
      audit: 1_000_000,
      exportPart: 25_000,
      limitMinutes: 20,
    };
const CONNECTIONS = 50;
const WRITE_SCOPES = ['runtime:control', 'secrets:read', 'rpa:write', 'profiles:read'];

const rows: Row[] = [];
const notes: string[] = [];
const running = new Set<{ stop: () => Promise<unknown> }>();
const scratch: string[] = [];

const ms = (v: number) => `${v.toFixed(1)} ms`;
const rps = (v: number) => `${Math.round(v)} req/s`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const times = (v: number) => `${v.toFixed(2)}×`;
const log = (message: string) => console.error(`[bench] ${message}`);

function row(section: string, figure: string, value: string, extra: Partial<Row> = {}): void {
  rows.push({ section, figure, value, reference: '', ratio: '', target: '', met: null, ...extra });
}

function failures(what: string, figures: LoadFigures): void {
  if (figures.failed > 0) notes.push(`${what}: ${figures.failed} requests failed or answered non-2xx.`);
}

async function track<T extends { stop: () => Promise<unknown> }>(started: Promise<T>): Promise<T> {
  const server = await started;
  running.add(server);
  return server;
}

async function stop(server: { stop: () => Promise<unknown> }): Promise<void> {
  running.delete(server);
  await server.stop();
}

function dataRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lpa-bench-'));
  scratch.push(dir);
  return dir;
}

/** Resident memory of all the service's processes, with the share of each. */
function memory(figure: string, service: RunningService, targetMb: number | null): void {
  const rss = treeRss(service.process.pid!);
  row('Memory', `${figure}: ${rss.processes.map((p) => `${p.command} ${mb(p.bytes)}`).join(' + ')}`, mb(rss.bytes), {
    target: targetMb === null ? '' : `≤ ${targetMb} MB`,
    met: targetMb === null ? null : rss.bytes <= targetMb * 2 ** 20,
  });
}

async function referenceHello(
  name: string,
  start: () => Promise<Server>,
  connections = CONNECTIONS,
): Promise<LoadFigures> {
  const server = await track(start());
  try {
    log(`${name} at ${connections} connections`);
    const figures = await readLoad(`http://127.0.0.1:${server.port}/`, {}, connections, PLAN.loadSeconds);
    row('Reference', `${name}, ${connections} conn`, rps(figures.rps), {
      reference: `p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}`,
    });
    failures(name, figures);
    return figures;
  } finally {
    await stop(server);
  }
}

interface Reference {
  name: string;
  figures: LoadFigures;
}

/** A GET at 50 connections, its row against `reference` (with a target ratio, if any) and its p99 against `p99Target`. */
async function readRow(
  service: { port: number },
  section: string,
  path: string,
  token: string | null,
  who: string,
  reference: Reference,
  ratioTarget: number | null,
  p99Target: number | null,
): Promise<LoadFigures> {
  log(`${section}: GET ${path} (${who})`);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const figures = await readLoad(`http://127.0.0.1:${service.port}${path}`, headers, CONNECTIONS, PLAN.loadSeconds);
  const ratio = figures.rps / reference.figures.rps;
  row(section, `GET ${path}, ${who}, ${CONNECTIONS} conn`, rps(figures.rps), {
    reference: `${reference.name} ${rps(reference.figures.rps)}`,
    ratio: times(ratio),
    target: ratioTarget === null ? '' : `≥ ${ratioTarget.toFixed(2)}×`,
    met: ratioTarget === null ? null : ratio >= ratioTarget,
  });
  row(section, `latency, GET ${path}, ${who}`, `p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}`, {
    target: p99Target === null ? '' : `p99 ≤ ${p99Target} ms`,
    met: p99Target === null ? null : figures.p99 <= p99Target,
  });
  failures(`GET ${path} (${who})`, figures);
  return figures;
}

const READ_PROFILES = 100;

/** The same handlers on Bun (`npm run start:bun`): what the pipeline costs without workerd's RPC and isolate. */
async function bunReference(hello: Reference): Promise<void> {
  const service = await track(startService('bun', dataRoot()));
  try {
    const scoped = (
      await ok<{ token: string }>(service, '/api/v1/tokens', {
        method: 'POST',
        body: { name: 'bench', scopes: WRITE_SCOPES },
      })
    ).token;
    await readRow(service, 'Reference (Bun)', '/status', null, 'no token', hello, null, null);
    await readRow(service, 'Reference (Bun)', '/api/v1/version', scoped, 'scoped token', hello, null, null);
  } finally {
    await stop(service);
  }
}

/** Reads and audited writes on a fresh store (with a page of profiles to read). */
/** What one Durable Object write costs workerd itself, by connections: the runtime's own limit for a write. */
type WriteReferences = Map<number, Reference>;

async function requests(hello: Reference, helloRpc: Reference, helloWrite: WriteReferences): Promise<void> {
  const root = dataRoot();
  await stop(await track(startService('workerd', root)));
  await seed(root, READ_PROFILES, 0, 0);
  const service = await track(startService('workerd', root));
  try {
    const scoped = (
      await ok<{ token: string }>(service, '/api/v1/tokens', {
        method: 'POST',
        body: { name: 'bench', scopes: WRITE_SCOPES },
      })
    ).token;
    await readRow(service, 'Read', '/status', null, 'no token', hello, 0.8, null);
    await readRow(service, 'Read', '/api/v1/version', scoped, 'scoped token', hello, 0.8, 50);
    await readRow(service, 'Read', '/api/v1/version', service.token, 'admin token', hello, null, null);
    await readRow(
      service,
      'Read',
      '/api/v1/profiles?limit=50',
      scoped,
      `scoped token, store-backed (${READ_PROFILES} profiles)`,
      helloRpc,
      0.8,
      50,
    );

    log('SQLite reference: single-row WAL commits, synchronous=FULL');
    const sqlite = await sqliteCommits(service.dataRoot, PLAN.sqliteSeconds, 'row');
    row('Reference', 'SQLite WAL single-row commits, synchronous=FULL, same disk', `${Math.round(sqlite)} commits/s`);
    const storeWrites = await sqliteCommits(service.dataRoot, PLAN.sqliteSeconds, 'audited');
    row(
      'Reference',
      'Store.globals.write in process (Bun, WAL, synchronous=FULL), same disk',
      `${Math.round(storeWrites)} commits/s`,
      {
        reference: 'single-row commits',
        ratio: times(storeWrites / sqlite),
      },
    );
    // Group commit at work: the fsyncs of the service per write it acknowledged (Linux, strace).
    const fsyncsOf = straceAvailable() ? service.process.pid! : null;
    for (const connections of [1, CONNECTIONS]) {
      log(`PUT globals at ${connections} connection(s)`);
      const prefix = `bench_c${connections}`;
      const { figures, globals, fsyncsPerWrite } = await writeLoad(
        `http://127.0.0.1:${service.port}`,
        scoped,
        prefix,
        connections,
        PLAN.loadSeconds,
        fsyncsOf,
      );
      const ratio = figures.rps / sqlite;
      row('Audited write', `PUT global (revision check + audit), ${connections} conn`, rps(figures.rps), {
        reference: `SQLite ${Math.round(sqlite)} commits/s`,
        ratio: times(ratio),
        target: connections === CONNECTIONS ? '≥ 1.00×' : '',
        met: connections === CONNECTIONS ? ratio >= 1 : null,
      });
      const runtime = helloWrite.get(connections)!;
      row('Audited write', "same, against the runtime's own write", rps(figures.rps), {
        reference: `${runtime.name} ${rps(runtime.figures.rps)}`,
        ratio: times(figures.rps / runtime.figures.rps),
      });
      row('Audited write', `latency, ${connections} conn`, `p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}`, {
        target: connections === CONNECTIONS ? 'p99 ≤ 100 ms' : '',
        met: connections === CONNECTIONS ? figures.p99 <= 100 : null,
      });
      row(
        'Audited write',
        `fsyncs per acknowledged write, ${connections} conn (strace, launcher + workerd)`,
        fsyncsPerWrite === null ? 'not measured' : fsyncsPerWrite.toFixed(3),
        {
          reference: fsyncsOf === null ? 'strace is not installed' : 'fsync + fdatasync calls / 2xx answers',
          target: connections === CONNECTIONS ? '≤ 0.20' : '',
          met: connections === CONNECTIONS && fsyncsPerWrite !== null ? fsyncsPerWrite <= 0.2 : null,
        },
      );
      failures(`writes at ${connections} connection(s)`, figures);
      // Every acknowledged write is there: a global is at the revision of its last answer, or one
      // more when a write was still in flight as the run stopped (it commits; nobody reads its answer).
      const stored = new Map(
        (
          await ok<{ items: { name: string; revision: number }[] }>(service, '/api/v1/automation/globals', {
            token: scoped,
          })
        ).items.map((g) => [g.name, g.revision]),
      );
      const lost = globals.filter((g) => {
        const ahead = (stored.get(g.name) ?? 0) - g.revision;
        return ahead < 0 || ahead > 1;
      });
      notes.push(
        `Writes at ${connections} connection(s): ${lost.length === 0 ? 'every acknowledged write is stored at its revision' : `${lost.length} globals are NOT at their acknowledged revision`}.`,
      );
    }
    memory('service RSS after the load', service, null);
  } finally {
    await stop(service);
  }
}

/** GET the profile list with a cursor from the middle of the traversal; p50 of a 50-item page. */
async function cursorPage(service: RunningService, total: number): Promise<number> {
  let cursor: string | null = null;
  for (let seen = 0; seen < total / 2; ) {
    const limit = Math.min(1000, total / 2 - seen);
    const page: { items: unknown[]; next_cursor: string | null } = await ok(
      service,
      `/api/v1/profiles?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    seen += page.items.length;
    cursor = page.next_cursor;
  }
  const path = `/api/v1/profiles?limit=50&cursor=${encodeURIComponent(cursor!)}`;
  return (await sample(async () => void (await ok(service, path)), PLAN.samples, PLAN.sampleSeconds)).p50;
}

async function seed(root: string, profiles: number, audit: number, exportPart: number): Promise<void> {
  log(
    `seeding ${profiles} profiles and ${audit} audit entries through the store's code (Bun on the store's SQLite file)`,
  );
  const result = await bunScript<{ seconds: number }>(
    'seed.ts',
    [root, String(profiles), String(audit), String(exportPart)],
    PLAN.limitMinutes * 60_000,
  );
  notes.push(
    `Seeding ${profiles} profiles / ${audit} audit entries took ${result.seconds.toFixed(1)} s (not a target).`,
  );
}

/** Profiles and audit at scale: the store is seeded while the service is stopped. */
async function atScale(): Promise<void> {
  const root = dataRoot();
  await stop(await track(startService('workerd', root)));
  await seed(root, PLAN.profilesSmall, PLAN.profilesSmall, 0);
  let service = await track(startService('workerd', root));
  const small = await cursorPage(service, PLAN.profilesSmall);
  await stop(service);

  await seed(root, PLAN.profilesLarge, PLAN.audit, PLAN.exportPart);
  const coldStarted = performance.now();
  service = await track(startService('workerd', root));
  const pageStarted = performance.now();
  await ok(service, '/api/v1/profiles?limit=50');
  const firstPage = performance.now() - pageStarted;
  const cold = performance.now() - coldStarted;
  const launcherReady = /ready in (\d+) ms/.exec(service.output())?.[1];
  try {
    const large = await cursorPage(service, PLAN.profilesLarge);
    row('Profiles', `cursor page (50) at ${PLAN.profilesSmall} profiles, p50`, ms(small));
    row('Profiles', `cursor page (50) at ${PLAN.profilesLarge} profiles, p50`, ms(large), {
      reference: `${PLAN.profilesSmall} profiles`,
      ratio: times(large / small),
      target: '≤ 1.50×',
      met: large / small <= 1.5,
    });
    row('Profiles', `cold start to first 200 (${PLAN.profilesLarge} profiles, ${PLAN.audit} audit entries)`, ms(cold), {
      reference: `launcher's own "ready in" ${launcherReady} ms (workerd + store open; nothing is bundled at start); first page ${ms(firstPage)}`,
      target: '≤ 1000 ms',
      met: cold <= 1000,
    });
    memory('service RSS at scale, after the profile pages', service, null);

    const audit = (query: string, target: number, figure: string) => async () => {
      const { p50 } = await sample(
        async () => void (await ok(service, `/api/v1/audit?${query}`)),
        PLAN.samples,
        PLAN.sampleSeconds,
      );
      row('Audit', `${figure}, p50`, ms(p50), { target: `≤ ${target} ms`, met: p50 <= target });
    };
    log('audit pages');
    await audit('limit=100', 10, `newest page (100) of ${PLAN.audit}`)();
    await audit('limit=100&action=profiles.create', 20, 'page filtered by action')();
    await audit(`limit=100&entity_id=${SEED_ENTITY}`, 20, 'page filtered by entity_id')();

    await verifyFigures(service);
    memory('service RSS at scale, after verify', service, null);

    log('audit export');
    const exportStarted = performance.now();
    let exported = 0;
    for (const action of EXPORT_ACTIONS)
      exported += (await ok<{ count: number }>(service, `/api/v1/audit/export?format=jsonl&action=${action}`)).count;
    row(
      'Audit',
      `export of ${exported} entries (jsonl, ${EXPORT_ACTIONS.length} responses)`,
      `${((performance.now() - exportStarted) / 1000).toFixed(2)} s`,
    );

    log('8 concurrent audit exports');
    const concurrent = await concurrentExports(service, [...EXPORT_ACTIONS, ...EXPORT_ACTIONS]);
    row(
      'Audit',
      `8 concurrent exports (jsonl, ${concurrent.entries} entries in all; 429 answers retried after Retry-After: ${concurrent.busy})`,
      `${concurrent.seconds.toFixed(2)} s`,
    );
    row(
      'Memory',
      'service RSS, peak while the 8 concurrent exports ran (sampled every 100 ms)',
      mb(concurrent.peakRss),
    );

    memory('service RSS at scale, after audit pages, verify, export and 8 concurrent exports', service, 250);
    const settings = await call<{ entries: number }>(service, '/api/v1/settings/audit');
    notes.push(`The at-scale store held ${settings.json.entries} audit entries when measured.`);
  } finally {
    await stop(service);
  }
}

/** Verify of the whole chain, with `GET /status` and a store-backed read sampled one at a time while it runs. */
async function verifyFigures(service: RunningService): Promise<void> {
  log('audit verify');
  const verifyStarted = performance.now();
  const verifying = ok<{ ok: boolean; checked: number }>(service, '/api/v1/audit/verify');
  const [status, read] = await Promise.all([
    sampleWhile(verifying, async () => void (await ok(service, '/status'))),
    sampleWhile(verifying, async () => void (await ok(service, '/api/v1/profiles?limit=50'))),
  ]);
  const verify = await verifying;
  const verifySeconds = (performance.now() - verifyStarted) / 1000;
  row('Audit', `verify (${verify.checked} entries, ok ${verify.ok})`, `${verifySeconds.toFixed(2)} s`, {
    target: '≤ 5 s',
    met: verifySeconds <= 5 && verify.ok,
  });
  for (const [what, figures] of [
    ['GET /status', status],
    ['GET /api/v1/profiles?limit=50', read],
  ] as const) {
    row(
      'Audit',
      `${what} while verify runs, p99 (${figures.n} requests, one at a time; p50 ${ms(figures.p50)})`,
      ms(figures.p99),
      {
        target: '≤ 100 ms',
        met: figures.p99 <= 100,
      },
    );
  }
}

/** `--only verify`: the audit entries of the plan on a small profile table, then verify alone. */
async function verifyOnly(): Promise<void> {
  const root = dataRoot();
  await stop(await track(startService('workerd', root)));
  await seed(root, PLAN.profilesSmall, PLAN.audit, PLAN.exportPart);
  const service = await track(startService('workerd', root));
  try {
    await verifyFigures(service);
    memory('service RSS after verify', service, null);
  } finally {
    await stop(service);
  }
}

/**
 * One export per action, all started at once, each retried as its 429 tells it (the service runs
 * only a few at a time); the resident memory of the service is sampled while they run.
 */
async function concurrentExports(service: RunningService, actions: readonly string[]) {
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(service.process.pid!).bytes)), 100);
  const started = performance.now();
  let busy = 0;
  const one = async (action: string): Promise<number> => {
    for (;;) {
      const response = await fetch(
        `http://127.0.0.1:${service.port}/api/v1/audit/export?format=jsonl&action=${action}`,
        {
          headers: { authorization: `Bearer ${service.token}` },
        },
      );
      if (response.status !== 429) {
        const body = (await response.json()) as { count: number };
        if (response.status !== 200)
          throw new Error(`export of ${action} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return body.count;
      }
      busy += 1;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  try {
    const counts = await Promise.all(actions.map(one));
    return { entries: counts.reduce((a, b) => a + b, 0), busy, seconds: (performance.now() - started) / 1000, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const limit = setTimeout(() => {
    console.error(`[bench] over the ${PLAN.limitMinutes}-minute limit; stopping`);
    notes.push(`The run hit its ${PLAN.limitMinutes}-minute limit; the figures above are the ones measured by then.`);
    report();
    void cleanup().then(() => process.exit(2));
  }, PLAN.limitMinutes * 60_000);
  // A section that fails is reported and the others still run: one run always writes what it measured.
  const section = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (error) {
      console.error(error);
      notes.push(`The ${name} section failed: ${(error as Error).message.slice(0, 300)}`);
      process.exitCode = 1;
    }
  };
  if (only === 'verify') await section('verify', verifyOnly);
  else
    await section('reference and request', async () => {
      await referenceHello('node:http hello', nodeHello);
      const hello = {
        name: 'workerd hello',
        figures: await referenceHello('workerd hello', () => workerdHello('plain')),
      };
      const helloRpc = {
        name: 'workerd hello + 1 RPC',
        figures: await referenceHello('workerd hello + 1 DO RPC (SQL read)', () => workerdHello('rpc')),
      };
      await bunReference(hello);
      const helloWrite: WriteReferences = new Map();
      for (const connections of [1, CONNECTIONS]) {
        const name = 'workerd hello + 1 DO RPC writing one row';
        helloWrite.set(connections, {
          name,
          figures: await referenceHello(name, () => workerdHello('write'), connections),
        });
      }
      await requests(hello, helloRpc, helloWrite);
    });
  if (only === null) await section('at-scale', atScale);
  clearTimeout(limit);
  report();
}

function report(): void {
  printTable(rows);
  for (const note of notes) console.log(`- ${note}`);
  // A run of one section would overwrite the full table with a part of it: it is printed only.
  if (only === null)
    writeResults(new URL('RESULTS.md', import.meta.url).pathname, quick ? 'quick' : 'full', rows, notes);
}

async function cleanup(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}

(teams
  ? benchTeams({ quick, seconds, cells })
  : teamEdge
    ? benchTeamEdge({ quick, seconds })
    : runs
      ? benchRuns({ quick, only: runsOnly })
      : teamRuns
        ? benchTeamRuns({ quick })
        : main()
)
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    // The time limit must not keep a finished (or failed) run alive.
    process.exit();
  });
