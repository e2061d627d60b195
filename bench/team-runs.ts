/**
 * `npm run bench -- --team-runs [--quick]`: team profiles that run on one machine at a time
 * (docs/teams.md#runs-across-machines), each figure next to a reference of the same run: the latency
 * of a profile's lease (take, renew, release) against `GET …/api/v1/version` on the same team; what
 * a start and a stop add for 10 and 100 MB of browser data that travels between two joined machines
 * against copying the same folder here; and the leases' writes per second at 64 teams × 10 machines
 * against the same teams' audited writes of globals. Printed and written to its section of
 * bench/RESULTS.md (docs/benchmarks.md#team-profiles-that-travel).
 */
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LEASE_MS } from '../storage/leases/schema';
import { ensureChromium } from '../test/node/chromium';
import type { RunningService } from '../test/node/service';
import {
  adminTeamToken,
  createTeam,
  joinMachine,
  startTeamService,
  teamOk,
  teamRequest,
  type RunningTeamService,
} from '../test/node/team-service';
import { newProfile, startRun, stopRun } from './browsers';
import { percentiles } from './load';
import { machine, markdownRows, printTable, writeSection, type Row } from './report';
import { chainState, inBatches, makeTeams } from './teams';
import { send, teamWrites, type TeamClient } from './team-load';

const TEAM = 'runs';
const OWNER = 'owner@runs.example';
/** The "machines" of each team in the writes-per-second figure, each with a team token and a profile of its own. */
const MACHINES_PER_TEAM = 10;
/** Browser data written into a profile's folder, in MiB (0: the profile as Chromium leaves it). */
const SIZES_MB = [0, 10, 100] as const;
/** Each file of the browser data: IndexedDB keeps large values in files of about this size. */
const FILE_BYTES = 2 ** 20;
/** A folder of the profile's own that Chromium neither reads nor clears, so the bytes are the bench's alone. */
const DATA_FOLDER = join('Default', 'bench-data');
/** Unmeasured lease cycles before the measured ones: connections open, the team's object warm. */
const WARMUP_SECONDS = 1;
const SAMPLES = 5;

const log = (message: string) => console.error(`[bench --team-runs] ${message}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const latency = ({ p50, p99 }: { p50: number; p99: number }) => `p50 ${ms(p50)}, p99 ${ms(p99)}`;
const median = (values: number[]) => percentiles([...values]).p50;

/** A team's profile's lease routes, as a machine's host calls them. */
const leasePath = (teamId: string, profileId: string, what: '' | '/renew' | '/release') =>
  `/teams/${teamId}/api/v1/runs/${profileId}/lease${what}`;

/**
 * Take, renew and release of one profile's lease, `cycles` times one after another with a machine's
 * team token, each cycle beside a `GET …/api/v1/version` with the same token and client: the team's
 * route that does the least besides the token. Then the same through machine `through` (joined, the
 * profile one of its team's), each call one a user of the machine makes: its forwarded
 * `GET /api/v1/version` (the plain forwarding of any team route), its `GET /api/v1/team/runs` (the
 * machine's own call of the team through handlers/team-runs.ts, the function its take, renewal and
 * release go through), beside the team's `GET …/api/v1/runs` straight; and a start of the profile
 * with `check_proxy` that the profile's missing proxy refuses (409 `proxy.not_set`) once the start
 * path has read the profile, taken the lease and opened the bundle, and which then releases the
 * lease: all of a start's lease work, no browser.
 */
async function leaseLatency(
  team: RunningTeamService,
  through: RunningService,
  profileId: string,
  cycles: number,
  row: (figure: string, value: string, extra?: Partial<Row>) => void,
): Promise<void> {
  log(`lease latency: ${cycles} cycles of take, renew, release, then the same through machine a`);
  const token = readFileSync(`${through.dataRoot}.token`, 'utf8').trim();
  const names = ['version', 'take', 'renew', 'release', 'list', 'machineVersion', 'machineList', 'start'] as const;
  const timings = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    (typeof names)[number],
    number[]
  >;
  const timed = async (
    into: number[],
    service: { port: number },
    path: string,
    init: { method: string; token: string; body?: unknown },
    expected = 200,
  ) => {
    const began = performance.now();
    const answer = await teamRequest(service, path, init);
    into.push(performance.now() - began);
    if (answer.status !== expected)
      throw new Error(`${init.method} ${path} answered ${answer.status}: ${JSON.stringify(answer.json).slice(0, 300)}`);
    return answer.json;
  };
  const teamCall = (into: number[], path: string, method: string, body?: unknown) =>
    timed(into, team, path, { method, token, body });
  for (let cycle = 0; cycle < cycles; cycle++) {
    const run = { run_id: randomUUID() };
    await teamCall(timings.version, `/teams/${TEAM}/api/v1/version`, 'GET');
    await teamCall(timings.take, leasePath(TEAM, profileId, ''), 'POST', { ...run, machine_label: 'bench machine' });
    await teamCall(timings.renew, leasePath(TEAM, profileId, '/renew'), 'POST', run);
    await teamCall(timings.release, leasePath(TEAM, profileId, '/release'), 'POST', run);
  }
  const machineCall = (into: number[], path: string, method: string, body?: unknown, expected?: number) =>
    timed(into, through, path, { method, token: through.token, body }, expected);
  for (let cycle = 0; cycle < cycles; cycle++) {
    await machineCall(timings.machineVersion, '/api/v1/version', 'GET');
    await teamCall(timings.list, `/teams/${TEAM}/api/v1/runs`, 'GET');
    await machineCall(timings.machineList, '/api/v1/team/runs', 'GET');
    const refused = await machineCall(
      timings.start,
      `/api/v1/profiles/${profileId}/start`,
      'POST',
      { headless: true, check_proxy: true },
      409,
    );
    if (refused?.error?.code !== 'proxy.not_set')
      throw new Error(`the start was refused with ${JSON.stringify(refused).slice(0, 300)}, not proxy.not_set`);
  }
  const reference = percentiles(timings.version);
  for (const [what, audited] of [
    ['take', 'granted, audited'],
    ['renew', 'not audited'],
    ['release', 'audited'],
  ] as const) {
    const figures = percentiles(timings[what]);
    row(`lease ${what} (${audited}), machine's team token, ${figures.n} one at a time`, latency(figures), {
      reference: `GET …/api/v1/version, same token: ${latency(reference)}`,
      ratio: `${(figures.p50 / reference.p50).toFixed(2)}× (p50)`,
    });
  }
  const throughRow = (figure: string, what: number[], against: number[], referenceName: string) => {
    const figures = percentiles(what);
    const base = percentiles(against);
    row(`${figure}, ${figures.n} one at a time`, latency(figures), {
      reference: `${referenceName}: ${latency(base)}`,
      ratio: `${(figures.p50 / base.p50).toFixed(2)}× (p50)`,
    });
  };
  throughRow(
    "through machine a: GET /api/v1/version, forwarded (the machine's plain forwarding of a team route)",
    timings.machineVersion,
    timings.version,
    'the same straight to the team, team token',
  );
  throughRow(
    "through machine a: GET /api/v1/team/runs (the machine's own team call, as its lease take, renew and release make it)",
    timings.machineList,
    timings.list,
    'GET …/api/v1/runs straight to the team, team token',
  );
  throughRow(
    'through machine a: a start refused after its lease work (profile read, lease take, bundle open, lease release; 409 proxy.not_set, no browser)',
    timings.start,
    timings.machineVersion,
    'the forwarded GET /api/v1/version above',
  );
}

/** SHA-256 of the bench's data in a profile's folder, its files in name order. */
function dataHash(profileFolder: string): string {
  const folder = join(profileFolder, DATA_FOLDER);
  const hash = createHash('sha256');
  for (const name of readdirSync(folder).sort()) hash.update(readFileSync(join(folder, name)));
  return hash.digest('hex');
}

/** `megabytes` MiB of random bytes (gzip cannot shrink them) in files of FILE_BYTES under the profile's folder. */
function writeData(profileFolder: string, megabytes: number): string {
  const folder = join(profileFolder, DATA_FOLDER);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const bytes = Buffer.alloc(FILE_BYTES);
  for (let n = 0; n < (megabytes * 2 ** 20) / FILE_BYTES; n++)
    writeFileSync(join(folder, `blob-${String(n).padStart(4, '0')}`), randomFillSync(bytes), { mode: 0o600 });
  return dataHash(profileFolder);
}

interface Travel {
  megabytes: number;
  /** Each timed stop (its upload included) and start (its fetch and unpack included), ms. */
  stops: number[];
  starts: number[];
  /** Copying the profile's folder on this machine, ms (none for the profile without data). */
  copies: number[];
  /** The newest version the team kept: encrypted size and parts. */
  bundle: { size: number; parts: number };
}

/**
 * A profile of `megabytes` of browser data, its run stopped on one machine and started on the other
 * `rounds` times (a to b, b to a, …): every stop uploads the folder, every start fetches and unpacks
 * it, and after each the data's hash on the machine that started it must be the one written.
 */
async function travel(
  machines: [RunningService, RunningService],
  owner: { team: RunningTeamService; token: string },
  megabytes: number,
  rounds: number,
): Promise<Travel> {
  const [a] = machines;
  const id = await newProfile(a, `bench data ${megabytes} MB`);
  // A first run makes the folder as Chromium leaves it; its stop uploads that as the first version.
  await startRun(a, id);
  await stopRun(a, id);
  const folderOf = (service: RunningService) => join(service.dataRoot, 'browsers', id);
  const copies: number[] = [];
  let written: string | null = null;
  if (megabytes > 0) {
    log(`browser data: ${megabytes} MB written into the stopped profile's folder on machine a`);
    written = writeData(folderOf(a), megabytes);
    const scratch = mkdtempSync(join(tmpdir(), 'lpa-bench-copy-'));
    try {
      for (let n = 0; n < Math.max(3, rounds); n++) {
        const began = performance.now();
        cpSync(folderOf(a), join(scratch, String(n)), { recursive: true });
        copies.push(performance.now() - began);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  // a holds the newest version already: this start fetches nothing and opens the browser on the data.
  await startRun(a, id);
  const stops: number[] = [];
  const starts: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const from = machines[round % 2]!;
    const to = machines[(round + 1) % 2]!;
    log(
      `browser data ${megabytes} MB, round ${round + 1} of ${rounds}: stop on ${from === a ? 'a' : 'b'}, start on ${to === a ? 'a' : 'b'}`,
    );
    let began = performance.now();
    await stopRun(from, id);
    stops.push(performance.now() - began);
    began = performance.now();
    await startRun(to, id);
    starts.push(performance.now() - began);
    if (written !== null && dataHash(folderOf(to)) !== written)
      throw new Error(
        `the ${megabytes} MB of browser data did not arrive whole on the other machine (its hash differs)`,
      );
  }
  await stopRun(machines[rounds % 2]!, id);
  const uploads = await teamOk<{ items: { details: { size: number; parts: number } }[] }>(
    owner.team,
    `/teams/${TEAM}/api/v1/audit?action=runs.bundle_upload&entity_id=${id}&limit=1`,
    { token: owner.token },
  );
  return { megabytes, stops, starts, copies, bundle: uploads.items[0]!.details };
}

/** The start and stop figures of each size, less those of the profile without data, against copying its folder. */
function travelRows(measured: Travel[], row: (figure: string, value: string, extra?: Partial<Row>) => void): void {
  const base = measured.find((t) => t.megabytes === 0)!;
  // A profile without the bench's data packs to some KiB: shown in MiB it would read 0.0.
  const bundleSize = (bytes: number) =>
    bytes < 2 ** 20 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  row(
    `start on the other machine, no data of the bench's (bundle ${bundleSize(base.bundle.size)}, ${base.bundle.parts} part(s)), median of ${base.starts.length}`,
    ms(median(base.starts)),
    { reference: `stop (its upload): ${ms(median(base.stops))}` },
  );
  for (const t of measured.filter((t) => t.megabytes > 0)) {
    const copy = median(t.copies);
    const reference = `cp -r of the folder here (fs.cpSync, median of ${t.copies.length}): ${ms(copy)}`;
    const startAdds = median(t.starts) - median(base.starts);
    const stopAdds = median(t.stops) - median(base.stops);
    const what = `${t.megabytes} MB of random bytes (bundle ${bundleSize(t.bundle.size)}, ${t.bundle.parts} parts)`;
    row(`what a start adds: fetch, open, unpack ${what}, median of ${t.starts.length}`, ms(startAdds), {
      reference,
      ratio: `${(startAdds / copy).toFixed(1)}×`,
    });
    row(`what a stop adds: pack, encrypt, upload ${what}, median of ${t.stops.length}`, ms(stopAdds), {
      reference,
      ratio: `${(stopAdds / copy).toFixed(1)}×`,
    });
  }
}

/** A team's "machine": a team token of its own and a profile of its own, whose lease it takes, renews and releases. */
interface LeaseMachine extends TeamClient {
  profileId: string;
}

interface LeaseFigures {
  /** Per team, in the order given: grants and releases acknowledged (each an audited write) and renewals. */
  teams: { audited: number; renewals: number }[];
  latencies: { take: number[]; renew: number[]; release: number[] };
  errors: number;
  samples: string[];
  seconds: number;
}

/**
 * Every machine loops take → renew → release on its own profile, each on a keep-alive connection of
 * its own, until `seconds` have passed; a cycle begun is finished, so no lease is left held.
 */
async function leaseLoad(
  port: number,
  teams: readonly { machines: LeaseMachine[] }[],
  seconds: number,
): Promise<LeaseFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: teams.length * MACHINES_PER_TEAM });
  const figures: LeaseFigures = {
    teams: teams.map(() => ({ audited: 0, renewals: 0 })),
    latencies: { take: [], renew: [], release: [] },
    errors: 0,
    samples: [],
    seconds,
  };
  const failures = new Map<string, number>();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const call = async (m: LeaseMachine, what: 'take' | 'renew' | 'release', body: object): Promise<boolean> => {
    const path = leasePath(m.teamId, m.profileId, what === 'take' ? '' : `/${what}`);
    const sent = performance.now();
    const answer = await send(agent, port, 'POST', path, m.token, JSON.stringify(body)).catch((error: Error) => ({
      status: 0,
      text: error.message,
    }));
    figures.latencies[what].push(performance.now() - sent);
    if (answer.status === 200) return true;
    figures.errors += 1;
    const kind = `${what}: ${answer.status} ${answer.text.slice(0, 200)}`;
    if (failures.has(kind) || failures.size < SAMPLES) failures.set(kind, (failures.get(kind) ?? 0) + 1);
    return false;
  };
  const machine = async (m: LeaseMachine, counts: LeaseFigures['teams'][number]) => {
    while (performance.now() < deadline) {
      const run = { run_id: randomUUID() };
      if (!(await call(m, 'take', { ...run, machine_label: `bench ${m.profileId.slice(0, 8)}` }))) continue;
      counts.audited += 1;
      if (await call(m, 'renew', run)) counts.renewals += 1;
      if (await call(m, 'release', run)) counts.audited += 1;
    }
  };
  try {
    await Promise.all(teams.flatMap((team, t) => team.machines.map((m) => machine(m, figures.teams[t]!))));
  } finally {
    agent.destroy();
  }
  figures.seconds = (performance.now() - started) / 1000;
  figures.samples = [...failures].map(([kind, times]) => `${times}× ${kind}`);
  return figures;
}

/**
 * `teamCount` teams of MACHINES_PER_TEAM machines each taking, renewing and releasing leases for
 * `seconds`, against the same teams' audited writes of globals at the same clients (what
 * `--teams` measures); every team's chain must then verify and hold exactly what was acknowledged.
 */
async function leasesAtScale(
  team: RunningTeamService,
  teamCount: number,
  seconds: number,
  row: (figure: string, value: string, extra?: Partial<Row>) => void,
  notes: string[],
): Promise<boolean> {
  log(`leases at scale: ${teamCount} teams × ${MACHINES_PER_TEAM} machines, ${seconds} s`);
  const teams = await inBatches(await makeTeams(team, teamCount), 8, async (admin) => {
    const machines: LeaseMachine[] = [];
    for (let n = 0; n < MACHINES_PER_TEAM; n++) {
      const api = `/teams/${admin.teamId}/api/v1`;
      const profile = await teamOk<{ id: string }>(team, `${api}/profiles`, {
        method: 'POST',
        token: admin.token,
        body: { name: `machine ${n}'s profile` },
      });
      const token = await teamOk<{ token: string }>(team, `${api}/tokens`, {
        method: 'POST',
        token: admin.token,
        body: { name: `machine ${n}`, scopes: ['profiles:write'] },
      });
      machines.push({ teamId: admin.teamId, token: token.token, profileId: profile.id });
    }
    return { admin, machines, acknowledged: 0 };
  });
  // One team at a time: a verify is refused with 429 while another runs in the same isolate.
  const before = await inBatches(teams, 1, ({ admin }) => chainState(team, admin));

  const cell = `${teamCount} × ${MACHINES_PER_TEAM}`;
  log(`${cell}: audited writes of globals (the reference)`);
  const admins = teams.map((t) => t.admin);
  const reference = await teamWrites(team.port, admins, MACHINES_PER_TEAM, seconds, 'leases_reference');
  reference.teams.forEach((f, i) => (teams[i]!.acknowledged += f.acknowledged));
  log(`${cell}: leases`);
  const warm = await leaseLoad(team.port, teams, WARMUP_SECONDS);
  const leases = await leaseLoad(team.port, teams, seconds);
  for (const figures of [warm, leases]) figures.teams.forEach((f, i) => (teams[i]!.acknowledged += f.audited));

  const badChains = (
    await inBatches([...teams.entries()], 1, async ([i, { admin, acknowledged }]) => {
      const after = await chainState(team, admin);
      const expected = before[i]!.checked + acknowledged + (after.starts - before[i]!.starts);
      if (!after.ok) return `${admin.teamId}: verify fails at seq ${after.firstBadSeq}`;
      return after.checked === expected
        ? null
        : `${admin.teamId}: ${after.checked} entries, expected ${expected} (${acknowledged} acknowledged writes)`;
    })
  ).filter((problem): problem is string => problem !== null);

  const audited = leases.teams.map((t) => t.audited / leases.seconds);
  const total = audited.reduce((sum, n) => sum + n, 0);
  const renewals = leases.teams.reduce((sum, t) => sum + t.renewals, 0) / leases.seconds;
  const globals = reference.teams.reduce((sum, t) => sum + t.acknowledged, 0) / reference.seconds;
  const globalLatency = percentiles(reference.latencies);
  const errors = warm.errors + leases.errors + reference.teams.reduce((sum, t) => sum + t.errors, 0);
  row(`${cell}: grants + releases (audited writes) per second, all teams`, `${Math.round(total)}/s`, {
    reference: `audited writes of globals, same teams and clients: ${Math.round(globals)}/s`,
    ratio: `${(total / globals).toFixed(2)}×`,
  });
  row(
    `${cell}: the same per team, mean (min–max)`,
    `${(total / teamCount).toFixed(1)} (${Math.min(...audited).toFixed(1)}–${Math.max(...audited).toFixed(1)})`,
  );
  row(`${cell}: renewals per second, all teams (not audited)`, `${Math.round(renewals)}/s`);
  for (const what of ['take', 'renew', 'release'] as const)
    row(`${cell}: lease ${what} latency`, latency(percentiles(leases.latencies[what])), {
      reference: `audited write of a global: ${latency(globalLatency)}`,
    });
  row(`${cell}: errors (leases and reference)`, String(errors), { target: '0', met: errors === 0 });
  row(
    `${cell}: chains after the run`,
    badChains.length === 0 ? `${teamCount} verify, exact` : `**${badChains.length} wrong**`,
    { target: 'every chain verifies with exactly its acknowledged writes', met: badChains.length === 0 },
  );
  for (const sample of [...reference.samples, ...warm.samples, ...leases.samples])
    notes.push(`${cell}, failed: ${sample}`);
  const [first, ...more] = badChains;
  if (first) notes.push(`${cell}, chains: ${first}${more.length ? `; and ${more.length} more teams` : ''}`);
  return errors === 0 && badChains.length === 0;
}

export async function benchTeamRuns({ quick }: { quick: boolean }): Promise<void> {
  const plan = quick
    ? { leaseCycles: 100, rounds: 2, teams: 8, seconds: 3 }
    : { leaseCycles: 300, rounds: 4, teams: 64, seconds: 10 };
  const chromium = ensureChromium();
  if ('skip' in chromium) throw new Error(chromium.skip);
  const work = mkdtempSync(join(tmpdir(), 'lpa-bench-team-runs-'));
  const rows: Row[] = [];
  const notes: string[] = [];
  const rowOf =
    (section: string) =>
    (figure: string, value: string, extra: Partial<Row> = {}) =>
      rows.push({ section, figure, value, reference: '', ratio: '', target: '', met: null, ...extra });
  let team: RunningTeamService | null = null;
  let machines: RunningService[] = [];
  let whole = false;
  try {
    log('starting npm run start:team and two machines joined to it');
    team = await startTeamService(join(work, 'team'));
    if ((await createTeam(team, TEAM, OWNER)).status !== 201) throw new Error('the team could not be created');
    const owner = { team, token: (await adminTeamToken(team, TEAM, OWNER, 'bench owner')).token };
    machines = await Promise.all(
      ['machine a', 'machine b'].map((label) =>
        joinMachine(team!, TEAM, OWNER, label, join(work, label.replace(' ', '-')), { LPA_BROWSER: chromium.path }),
      ),
    );
    const [a, b] = machines as [RunningService, RunningService];

    const leased = await teamOk<{ id: string }>(team, `/teams/${TEAM}/api/v1/profiles`, {
      method: 'POST',
      token: owner.token,
      body: { name: 'bench lease' },
    });
    await leaseLatency(team, a, leased.id, plan.leaseCycles, rowOf('Lease'));

    const measured: Travel[] = [];
    for (const megabytes of SIZES_MB) measured.push(await travel([a, b], owner, megabytes, plan.rounds));
    travelRows(measured, rowOf('Browser data'));
    for (const t of measured)
      notes.push(
        `${t.megabytes} MB: stops ${t.stops.map(ms).join(', ')}; starts ${t.starts.map(ms).join(', ')}${t.copies.length ? `; copies ${t.copies.map(ms).join(', ')}` : ''}.`,
      );
    await Promise.all(machines.map((m) => m.stop()));
    machines = [];

    whole = await leasesAtScale(team, plan.teams, plan.seconds, rowOf('Leases at scale'), notes);
  } finally {
    await Promise.all([...machines.map((m) => m.stop()), team?.stop()]);
    rmSync(work, { recursive: true, force: true });
  }

  printTable(rows);
  for (const note of notes) console.log(`- ${note}`);
  // A lease write that failed or a chain that does not hold its writes is a fault, not a figure of a busy machine.
  if (!whole) process.exitCode = 1;
  writeSection(new URL('RESULTS.md', import.meta.url).pathname, 'team-runs', [
    `Written by \`npm run bench -- --team-runs${quick ? ' --quick' : ''}\`: \`npm run start:team\` (lease ${DEFAULT_LEASE_MS / 1000} s, the default) and two \`npm start\` machines joined to it running headless Chromium (\`LPA_BROWSER=${chromium.path}\`); lease latency over ${plan.leaseCycles} cycles; browser data over ${plan.rounds} stops and starts per size; leases at scale for ${plan.seconds} s after a ${WARMUP_SECONDS} s warm-up (docs/benchmarks.md#team-profiles-that-travel).`,
    '',
    machine('the client (fetch and node:http, in the bench process)'),
    '',
    ...markdownRows(rows),
    '',
    ...notes.map((note) => `- ${note}`),
  ]);
}
