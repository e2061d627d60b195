/**
 * `npm run bench -- --runs [--quick]`: a profile's browser as `npm start` runs it, against the same
 * browser started directly with the same switches, in one run: the time from the start request to a
 * usable Puppeteer connection, a DevTools round trip through LPA's endpoint and on the browser's own
 * port, LPA's own memory with ten profiles running, `GET /status` while ten start at once, and a page
 * load through a profile's authenticated proxy against the browser pointed at the same proxy directly,
 * a cookie export, the synchronizer's added delay (./synchronizer.ts) and a flow job on ten profiles
 * (./flow-runs.ts). Printed and written to its section of bench/RESULTS.md (docs/benchmarks.md#runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as ProxyServer } from 'proxy-chain';
import type { Browser, CDPSession } from 'puppeteer-core';
import type { Run } from '../src/shared/schemas/run';
import { ensureChromium } from '../test/node/chromium';
import { processTree } from '../test/node/process-tree';
import { startService, type RunningService } from '../test/node/service';
import { ok } from './api';
import {
  type Bench,
  closeDirect,
  connect,
  launchDirect,
  launched,
  log,
  mb,
  ms,
  newProfile,
  startRun,
  stopRun,
  times,
  wait,
} from './browsers';
import { cpuSince, mainThreadCpu, treeCpu } from './cpu';
import { flowRunFigures } from './flow-runs';
import { percentiles, sample, sampleWhile } from './load';
import { processesRss } from './memory';
import { machine, markdownRows, printTable, writeSection, type Row } from './report';
import { pipeRelay, tcpHop } from './references';
import { synchronizerFigures } from './synchronizer';

const TARGETS = {
  startRatio: 1.2,
  roundTripRatio: 1.3,
  memoryMb: 30,
  statusP99Ms: 50,
  proxyLoadRatio: 1.2,
  cookieExportMs: 1_000,
};
/** The cookies of the export figure: a busy profile's jar (issue #31). */
const COOKIES = 5_000;
/** Profiles started at once for the memory and `/status` figures. */
const AT_ONCE = 10;
/** Round trips of one client taken in a row before the next client's turn. */
const BLOCK = 50;
/** Round trips of each client before the measured ones. */
const WARM_UP = 20;
/** Milliseconds to the endpoint being known (the start's answer; Chromium's "listening" line) and to the connection. */
interface StartTimes {
  endpoint: number;
  connected: number;
}

async function startThroughLpa(service: RunningService, profileId: string): Promise<StartTimes> {
  const began = performance.now();
  const run = await startRun(service, profileId);
  const answered = performance.now();
  const browser = await connect({ browserWSEndpoint: run.ws_endpoint! });
  const connected = performance.now();
  await browser.disconnect();
  await stopRun(service, profileId);
  return { endpoint: answered - began, connected: connected - began };
}

async function startDirect(path: string, folder: string): Promise<StartTimes> {
  const began = performance.now();
  const { child, endpoint } = await launchDirect(path, folder);
  const listening = performance.now();
  const browser = await connect({ browserWSEndpoint: endpoint });
  const connected = performance.now();
  await closeDirect(browser, child);
  return { endpoint: listening - began, connected: connected - began };
}

/** `Runtime.evaluate` of `1+1` on the first page, through a CDP session of the client's own. */
async function evaluator(browser: Browser): Promise<() => Promise<number>> {
  const [page] = await browser.pages();
  if (!page) throw new Error('the browser has no page to evaluate in');
  const session: CDPSession = await page.createCDPSession();
  return async () => {
    const began = performance.now();
    const { result } = await session.send('Runtime.evaluate', { expression: '1+1' });
    const took = performance.now() - began;
    if (result.value !== 2) throw new Error(`1+1 evaluated to ${JSON.stringify(result)}`);
    return took;
  };
}

/**
 * `count` sequential round trips of each client, in blocks of BLOCK taken in turn (which client goes
 * first alternates), so that whatever else the machine does falls on each alike.
 */
async function roundTrips(clients: (() => Promise<number>)[], count: number): Promise<number[][]> {
  for (const trip of clients) for (let i = 0; i < WARM_UP; i++) await trip();
  const taken = clients.map((): number[] => []);
  for (let block = 0; block * BLOCK < count; block++) {
    const order = block % 2 === 0 ? clients.keys() : [...clients.keys()].reverse();
    for (const c of order) for (let i = 0; i < BLOCK; i++) taken[c]!.push(await clients[c]!());
  }
  return taken;
}

/**
 * One profile started through LPA and one folder launched directly, in turn (which goes first
 * alternates), each stopped before the next start. Answers the first start of each (a new folder).
 */
async function startFigures({ service, browser, root, row, notes }: Bench, rounds: number): Promise<StartTimes> {
  log(`start to a Puppeteer connection: ${rounds} rounds, LPA and direct in turn`);
  const profile = await newProfile(service, 'bench start');
  const folder = join(root, 'direct');
  const throughLpa = () => startThroughLpa(service, profile);
  const direct = () => startDirect(browser, folder);
  // The first start of each makes its folder and warms the service: not measured.
  const first = { lpa: await throughLpa(), direct: await direct() };
  const measured = { lpa: [] as StartTimes[], direct: [] as StartTimes[] };
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) measured.lpa.push(await throughLpa());
    measured.direct.push(await direct());
    if (round % 2 === 1) measured.lpa.push(await throughLpa());
  }
  const p50 = (side: keyof typeof measured, part: keyof StartTimes) =>
    percentiles(measured[side].map((t) => t[part])).p50;
  const ratio = p50('lpa', 'connected') / p50('direct', 'connected');
  row('Start', `start request → Puppeteer connected, p50 of ${rounds}`, ms(p50('lpa', 'connected')), {
    reference: `direct launch → connected ${ms(p50('direct', 'connected'))}`,
    ratio: times(ratio),
    target: `≤ ${TARGETS.startRatio.toFixed(2)}×`,
    met: ratio <= TARGETS.startRatio,
  });
  row(
    'Start',
    'of which: the start answered (LPA) / Chromium printed its endpoint (direct), p50',
    ms(p50('lpa', 'endpoint')),
    {
      reference: ms(p50('direct', 'endpoint')),
      ratio: times(p50('lpa', 'endpoint') / p50('direct', 'endpoint')),
    },
  );
  const each = (all: StartTimes[]) => all.map((t) => t.connected.toFixed(0)).join(', ');
  notes.push(
    `First starts (new folders, not measured): LPA ${ms(first.lpa.connected)}, direct ${ms(first.direct.connected)}. Every measured start: LPA ${each(measured.lpa)} ms; direct ${each(measured.direct)} ms.`,
  );
  return first.lpa;
}

/**
 * One run with `debug_port: true`, so that the same browser and page are reached by the same client
 * through LPA's endpoint, on the browser's own port, and on that port behind a bare TCP hop in Node
 * and in Bun (./references.ts), which shows what one more process in the way costs, and how much of
 * it is the runtime's, before LPA's relay reads a byte. A further client goes through a minimal
 * WebSocket-to-pipe relay on a browser of its own (./references.ts): what a relay over the pipe costs
 * before LPA's own work. Last, the same pair on a run of LPA under Bun (`npm run start:bun`), whose
 * relay runs in the service's own process on Bun's sockets (docs/runs.md#on-each-runtime).
 */
async function roundTripFigures({ service, own, browser, root, row, notes }: Bench, count: number): Promise<void> {
  log(
    `round trips: ${count} through LPA's endpoint, on the browser's own port, behind bare TCP hops, through a minimal relay, and through LPA under Bun, in turn`,
  );
  const profile = await newProfile(service, 'bench round trips');
  const run = await startRun(service, profile, { debug_port: true });
  notes.push(`Browser: ${run.browser_version}.`);
  const nodeHop = await tcpHop(run.debug_port!, 'node');
  const bunHop = await tcpHop(run.debug_port!, 'bun');
  const relay = await pipeRelay(browser, join(root, 'relay'));
  const onBun = await startService('bun', join(root, 'bun-service'), { LPA_BROWSER: browser });
  try {
    const bunProfile = await newProfile(onBun, 'bench round trips');
    const bunRun = await startRun(onBun, bunProfile, { debug_port: true });
    const clients = {
      lpa: await connect({ browserWSEndpoint: run.ws_endpoint! }),
      port: await connect({ browserURL: `http://127.0.0.1:${run.debug_port}` }),
      nodeHop: await connect({ browserURL: `http://127.0.0.1:${nodeHop.port}` }),
      bunHop: await connect({ browserURL: `http://127.0.0.1:${bunHop.port}` }),
      relay: await connect({ browserWSEndpoint: `ws://127.0.0.1:${relay.port}/` }),
      bunLpa: await connect({ browserWSEndpoint: bunRun.ws_endpoint! }),
      bunPort: await connect({ browserURL: `http://127.0.0.1:${bunRun.debug_port}` }),
    };
    const names = Object.keys(clients) as (keyof typeof clients)[];
    const evaluators = [];
    for (const name of names) evaluators.push(await evaluator(clients[name]));
    // Only the trips through LPA's endpoint under npm start cross that service, so its CPU is theirs.
    const cpu = treeCpu(service.process.pid!);
    const inBetween = [
      ['the Node hop', nodeHop.pid],
      ['the Bun hop', bunHop.pid],
      ['the minimal relay', relay.pid],
    ] as const;
    const inBetweenCpu = inBetween.map(([, pid]) => mainThreadCpu(pid));
    const taken = await roundTrips(evaluators, count);
    const figures = Object.fromEntries(names.map((name, at) => [name, percentiles(taken[at]!)])) as Record<
      keyof typeof clients,
      ReturnType<typeof percentiles>
    >;
    const ownNames = new Set(processesRss(own).processes.map((p) => p.command));
    notes.push(
      `The service's CPU per round trip through LPA's endpoint: ${[...cpuSince(service.process.pid!, cpu).byName]
        .filter(([name]) => ownNames.has(name))
        .map(([name, seconds]) => `${name} ${((seconds * 1000) / figures.lpa.n).toFixed(2)} ms`)
        .join(', ')}.`,
      `The CPU per round trip of the process in between, its main thread's: ${inBetween
        .map(([name, pid], at) => {
          const trips = figures.port.n + WARM_UP;
          return `${name} ${(((mainThreadCpu(pid) - inBetweenCpu[at]!) * 1e6) / trips).toFixed(0)} µs`;
        })
        .join(', ')}.`,
    );
    await Promise.all(names.map((name) => clients[name].disconnect()));
    await stopRun(onBun, bunProfile);
    const targetRows = [
      [figures.lpa, figures.port, "through LPA's endpoint"],
      [figures.bunLpa, figures.bunPort, "through LPA's endpoint under Bun (`npm run start:bun`, a run of its own)"],
    ] as const;
    for (const [through, port, figure] of targetRows)
      for (const at of ['p50', 'p99'] as const) {
        const ratio = through[at] / port[at];
        row('Round trip', `Runtime.evaluate 1+1 ${figure}, ${at} of ${through.n}`, ms(through[at], 2), {
          reference: `the browser's own port ${ms(port[at], 2)}`,
          ratio: times(ratio),
          target: `≤ ${TARGETS.roundTripRatio.toFixed(2)}×`,
          met: ratio <= TARGETS.roundTripRatio,
        });
      }
    const floors = [
      [
        figures.nodeHop,
        'the same on the own port behind a bare TCP hop in Node, the least a relay there adds (why the launcher runs on Bun)',
      ],
      [figures.bunHop, "the same behind the same hop in Bun (the launcher's runtime), the least a relay there adds"],
      [
        figures.relay,
        'the same through a minimal WebSocket-to-pipe relay on Bun (a browser of its own), the least a relay over the pipe adds there',
      ],
    ] as const;
    for (const [through, figure] of floors)
      for (const at of ['p50', 'p99'] as const)
        row('Round trip', `${figure}, ${at}`, ms(through[at], 2), {
          reference: `the browser's own port ${ms(figures.port[at], 2)}`,
          ratio: times(through[at] / figures.port[at]),
        });
  } finally {
    await onBun.stop();
    await Promise.all([nodeHop.stop(), bunHop.stop(), relay.stop()]);
    await stopRun(service, profile);
  }
}

/**
 * AT_ONCE new profiles started at once, `GET /status` sampled one at a time meanwhile, against the
 * same while as many browsers are launched directly (the CPUs' share of it), then LPA's own memory
 * with them running.
 */
async function atOnceFigures(
  { service, own, browser, root, row }: Bench,
  firstStart: StartTimes | null,
): Promise<void> {
  log(`${AT_ONCE} profiles started at once`);
  const ids: string[] = [];
  for (let i = 0; i < AT_ONCE; i++) ids.push(await newProfile(service, `bench at once ${i}`));
  const status = async () => void (await ok(service, '/status'));
  const idle = await sample(status, 200, 5);
  const fresh = processesRss(own).bytes;

  const launchedAt = performance.now();
  const launching = Promise.all(
    Array.from({ length: AT_ONCE }, async (_, i) => {
      const { child, endpoint } = await launchDirect(browser, join(root, `direct-${i}`));
      return { child, browser: await connect({ browserWSEndpoint: endpoint }) };
    }),
  );
  const beside = await sampleWhile(launching, status);
  const allLaunched = performance.now() - launchedAt;
  await Promise.all((await launching).map((direct) => closeDirect(direct.browser, direct.child)));

  // LPA's memory in a round of its own, before the one that asks /status without pause: thousands of
  // answers leave workerd's heap up to 25 MB larger for a while, which is not what running profiles cost.
  const before = processesRss(own);
  const quietAt = performance.now();
  await Promise.all(ids.map((id) => startRun(service, id)));
  const quietStarted = performance.now() - quietAt;
  // The launcher reads the browsers' output and workerd records the runs after the answers: a second later, that has settled.
  await wait(1_000);
  const running = processesRss(own);
  const growth = running.bytes - before.bytes;
  row(
    'At once',
    `LPA's own memory with ${AT_ONCE} headless profiles running, growth (${running.processes.map((p) => `${p.command} ${mb(p.bytes)}`).join(' + ')})`,
    mb(growth),
    {
      reference: `${mb(before.bytes)} before the starts (${mb(fresh)} before any of this section's browsers); started at once with nothing else asked, the last answered after ${ms(quietStarted)}`,
      target: `≤ ${TARGETS.memoryMb} MB`,
      met: growth <= TARGETS.memoryMb * 2 ** 20,
    },
  );
  const clients = await Promise.all(
    (await ok<{ items: Run[] }>(service, '/api/v1/runs')).items.map((live) =>
      connect({ browserWSEndpoint: live.ws_endpoint! }),
    ),
  );
  await wait(1_000);
  row(
    'At once',
    `the same with a Puppeteer client connected to each (${clients.length})`,
    mb(processesRss(own).bytes - before.bytes),
    { reference: `${mb(before.bytes)} before the starts` },
  );
  await Promise.all(clients.map((client) => client.disconnect()));
  await Promise.all(ids.map((id) => stopRun(service, id)));

  const startedAt = performance.now();
  const starting = Promise.all(ids.map((id) => startRun(service, id)));
  const busy = await sampleWhile(starting, status);
  await starting;
  const allStarted = performance.now() - startedAt;
  row('At once', `GET /status while ${AT_ONCE} profiles start, p99 of ${busy.n} (one at a time)`, ms(busy.p99), {
    reference: `p50 ${ms(busy.p50)}; while ${AT_ONCE} direct launches start: p99 ${ms(beside.p99)} (p50 ${ms(beside.p50)}, ${beside.n}); nothing starting: p99 ${ms(idle.p99)} (p50 ${ms(idle.p50)})`,
    target: `≤ ${TARGETS.statusP99Ms} ms`,
    met: busy.p99 <= TARGETS.statusP99Ms,
  });
  row('At once', `${AT_ONCE} starts at once with /status asked meanwhile, the last answered after`, ms(allStarted), {
    reference: `${AT_ONCE} direct launches at once, /status asked meanwhile, the last connected after ${ms(allLaunched)}${firstStart ? `; LPA's first start of one profile alone answered in ${ms(firstStart.endpoint)}` : ''}`,
  });
  await Promise.all(ids.map((id) => stopRun(service, id)));
}

/** The page the proxy figures load: 64 KB of text, from a site on loopback. */
const PROXY_PAGE = `<!doctype html><title>bench</title><pre>${'lpa proxy bench\n'.repeat(4096)}</pre>`;

/**
 * A page load (`page.goto` to `load`, cache off) through a profile's authenticated proxy, that is
 * LPA's local proxy-chain forwarding to the upstream with the credentials, against the same browser
 * with LPA's proxy switches pointed at the same upstream directly, without credentials (Chromium
 * cannot send them). The upstream is proxy-chain's own server on loopback, which checks the
 * credentials when they are given. The two sides take turns, one load each.
 */
async function proxyFigures({ service, browser, root, row, notes }: Bench, loads: number): Promise<void> {
  log(`page loads through a proxy: ${loads} through the profile's proxy and ${loads} with Chromium pointed at it`);
  const site = createServer((_, res) => res.end(PROXY_PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const upstream = new ProxyServer({
    host: '127.0.0.1',
    port: 0,
    prepareRequestFunction: ({ username, password }) => ({
      requestAuthentication: username !== '' && (username !== 'bench' || password !== 'bench-pw'),
    }),
  });
  await upstream.listen();
  const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const profile = await ok<{ id: string }>(service, '/api/v1/profiles', {
    method: 'POST',
    body: {
      name: 'bench proxy',
      proxy: { type: 'http', host: '127.0.0.1', port: upstream.port, username: 'bench', password: 'bench-pw' },
    },
  });
  const run = await startRun(service, profile.id);
  const viaLpa = await connect({ browserWSEndpoint: run.ws_endpoint! });
  const direct = await launchDirect(browser, join(root, 'direct-proxy'), `http://127.0.0.1:${upstream.port}`);
  const viaUpstream = await connect({ browserWSEndpoint: direct.endpoint });
  try {
    const pages = await Promise.all([viaLpa, viaUpstream].map((client) => client.newPage()));
    for (const page of pages) await page.setCacheEnabled(false);
    const load = async (page: (typeof pages)[number]) => {
      const began = performance.now();
      await page.goto(url, { waitUntil: 'load' });
      return performance.now() - began;
    };
    // One load each first: not measured (connections to the proxies, the first page).
    for (const page of pages) await load(page);
    const measured: [number[], number[]] = [[], []];
    for (let round = 0; round < loads; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const side of order) measured[side]!.push(await load(pages[side]!));
    }
    const [lpa, reference] = measured.map(percentiles) as [
      ReturnType<typeof percentiles>,
      ReturnType<typeof percentiles>,
    ];
    const ratio = lpa.p50 / reference.p50;
    row('Proxy', `page load through the profile's authenticated proxy, p50 of ${loads}`, ms(lpa.p50), {
      reference: `Chromium pointed at the same upstream ${ms(reference.p50)}`,
      ratio: times(ratio),
      target: `≤ ${TARGETS.proxyLoadRatio.toFixed(2)}×`,
      met: ratio <= TARGETS.proxyLoadRatio,
    });
    notes.push(
      `Proxy page loads, p99: through the profile's proxy ${ms(lpa.p99)}, pointed at the upstream ${ms(reference.p99)}.`,
    );
  } finally {
    await viaLpa.disconnect();
    await stopRun(service, profile.id);
    await closeDirect(viaUpstream, direct.child);
    await upstream.close(true);
    site.close();
  }
}

/**
 * A cookie export of COOKIES cookies from a running profile (docs/cookies.md): the route as a client
 * calls it, DevTools' Storage.getCookies and the JSON written, timed end to end.
 */
async function cookieFigures({ service, row, notes }: Bench, rounds: number): Promise<void> {
  log(`cookies: ${COOKIES} imported into a running profile, exported ${rounds} times`);
  const profile = await newProfile(service, 'bench cookies');
  await startRun(service, profile);
  const expires = Math.floor(Date.now() / 1000) + 30 * 86_400;
  const jar = Array.from({ length: COOKIES }, (_, n) => ({
    name: `c${n % 50}`,
    value: `v${n}`.padEnd(32, 'x'),
    // A site of its own for each 50: Chromium keeps at most 180 cookies per site.
    domain: `d${Math.floor(n / 50)}.example${Math.floor(n / 50)}.com`,
    expires,
  }));
  const began = performance.now();
  const imported = await ok<{ imported: number }>(service, `/api/v1/profiles/${profile}/cookies`, {
    method: 'POST',
    body: { content: JSON.stringify(jar), format: 'json' },
  });
  notes.push(
    `Cookie import of ${imported.imported} cookies into the running profile: ${ms(performance.now() - began)}.`,
  );
  const times: number[] = [];
  let held = 0;
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    const answer = await ok<{ count: number }>(service, `/api/v1/profiles/${profile}/cookies?format=json`);
    times.push(performance.now() - start);
    held = answer.count;
  }
  await stopRun(service, profile);
  const { p50, n } = percentiles(times);
  // Chromium keeps at most 3,300 cookies in all and evicts down to 3,000: a jar of 5,000 cannot be held.
  if (held < COOKIES)
    notes.push(`Of the ${COOKIES} cookies imported, the browser kept ${held} (Chromium's limit of its jar).`);
  row('Cookies', `export of ${held} cookies (${COOKIES} imported) from a running profile, p50 of ${n}`, ms(p50), {
    target: `< ${TARGETS.cookieExportMs} ms`,
    met: p50 < TARGETS.cookieExportMs,
  });
}

/** The sections that run alone (`npm run bench -- --runs --only proxy`): printed and not written to bench/RESULTS.md. */
export const RUNS_SECTIONS = ['roundtrip', 'atonce', 'proxy', 'cookies', 'sync', 'flows'] as const;

export async function benchRuns({
  quick,
  only,
}: {
  quick: boolean;
  only: (typeof RUNS_SECTIONS)[number] | null;
}): Promise<void> {
  const plan = quick
    ? { startRounds: 3, roundTrips: 200, proxyLoads: 15, cookieRounds: 5, syncClicks: 10, flowRounds: 1 }
    : { startRounds: 7, roundTrips: 500, proxyLoads: 41, cookieRounds: 11, syncClicks: 40, flowRounds: 3 };
  const chromium = ensureChromium();
  if ('skip' in chromium) throw new Error(chromium.skip);
  const root = mkdtempSync(join(tmpdir(), 'lpa-bench-runs-'));
  const rows: Row[] = [];
  const notes: string[] = [];
  let service: RunningService | null = null;
  try {
    log('starting npm start');
    service = await startService('workerd', join(root, 'service'), { LPA_BROWSER: chromium.path });
    const bench: Bench = {
      service,
      own: processTree(service.process.pid!),
      browser: chromium.path,
      root,
      row: (section, figure, value, extra = {}) =>
        rows.push({ section, figure, value, reference: '', ratio: '', target: '', met: null, ...extra }),
      notes,
    };
    const firstStart = only === null ? await startFigures(bench, plan.startRounds) : null;
    if (only === null || only === 'roundtrip') await roundTripFigures(bench, plan.roundTrips);
    if (only === null || only === 'atonce') await atOnceFigures(bench, firstStart);
    if (only === null || only === 'proxy') await proxyFigures(bench, plan.proxyLoads);
    if (only === null || only === 'cookies') await cookieFigures(bench, plan.cookieRounds);
    if (only === null || only === 'sync') await synchronizerFigures(bench, plan.syncClicks);
    if (only === null || only === 'flows') await flowRunFigures(bench, plan.flowRounds);
  } finally {
    // Stopping the service closes its browsers; the bench's own are killed.
    await service?.stop();
    for (const child of launched) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }

  printTable(rows);
  for (const note of notes) console.log(`- ${note}`);
  if (only !== null) return;
  writeSection(new URL('RESULTS.md', import.meta.url).pathname, 'runs', [
    `Written by \`npm run bench -- --runs${quick ? ' --quick' : ''}\`: headless profiles of \`npm start\` (\`LPA_BROWSER=${chromium.path}\`) against the same browser launched directly with LPA's switches, \`--remote-debugging-port=0\` instead of the pipe (docs/benchmarks.md#runs); the client is puppeteer-core in the bench process.`,
    '',
    machine('the client (puppeteer-core and fetch, in the bench process)'),
    '',
    ...markdownRows(rows),
    '',
    ...notes.map((note) => `- ${note}`),
  ]);
}
