/**
 * `npm run bench -- --teams [--quick] [--seconds S] [--cells NxM,…]`: the team service as `npm run start:team` runs
 * it, under audited writes from N teams × M clients each, printed and (without --cells) written to its section of
 * bench/RESULTS.md (docs/benchmarks.md#the-team-service-under-load). After every cell each team's chain is
 * verified and must count exactly the writes the team acknowledged, plus what creating it wrote and
 * one entry per start of its object.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adminTeamToken,
  createTeam,
  startTeamService,
  teamOk,
  type RunningTeamService,
} from '../test/node/team-service';
import { cpuSince, treeCpu } from './cpu';
import { percentiles } from './load';
import { machine, markdownTable, printGrid, writeSection } from './report';
import { teamWrites, type TeamClient, type WriteFigures } from './team-load';

const TEAMS = [1, 8, 64] as const;
const CLIENTS = [1, 10, 50] as const;
/** The cell the latency and fairness targets are set for. */
const TARGET_CELL = { teams: 8, clients: 10 };
const TARGETS = { fairness: 1.2, p99Ms: 100 };
/** Unmeasured writes before each cell: connections open, objects and the JIT warm. */
const WARMUP_SECONDS = 1;
/** What creating a team writes to its chain besides its object's start: the owner's `members.write`, the bench token's `tokens.create`. */
const CREATION_ENTRIES = 2;
/** Teams created (and tokens made) at once. */
const CREATING_AT_ONCE = 8;

export interface Team extends TeamClient {
  /** Writes acknowledged so far, over every cell and warm-up. */
  acknowledged: number;
  /** Writes failed so far: each may or may not have committed. */
  failed: number;
}

interface Cell {
  teams: number;
  clients: number;
  figures: WriteFigures;
  p50: number;
  p99: number;
  errors: number;
  /** Max/min of the teams' acknowledged writes in the measured run. */
  fairness: number;
  /** CPU time of all the service's processes (the launcher's Node, workerd) per acknowledged write in the measured run, ms. */
  cpuPerWrite: number;
  /** The same by process name, ms per write, largest first. */
  cpuPerWriteByProcess: [string, number][];
  /** Teams whose chain does not verify or does not hold exactly its entries, with why. */
  badChains: string[];
}

const log = (message: string) => console.error(`[bench --teams] ${message}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const perSecond = (n: number, seconds: number) => n / seconds;

export async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** Teams `bench-01`… with an admin team token of each owner's, `CREATING_AT_ONCE` at a time. */
export async function makeTeams(service: RunningTeamService, count: number): Promise<Team[]> {
  const ids = Array.from({ length: count }, (_, i) => `bench-${String(i + 1).padStart(2, '0')}`);
  return inBatches(ids, CREATING_AT_ONCE, async (teamId) => {
    const owner = `owner@${teamId}.example`;
    const created = await createTeam(service, teamId, owner);
    if (created.status !== 201)
      throw new Error(`creating ${teamId} answered ${created.status}: ${JSON.stringify(created.json)}`);
    return { teamId, token: (await adminTeamToken(service, teamId, owner, 'bench')).token, acknowledged: 0, failed: 0 };
  });
}

/** A team's chain as the team verifies it, and how many `service.start` entries (one per start of its object) it holds. */
export async function chainState(
  service: RunningTeamService,
  team: TeamClient,
): Promise<{ ok: boolean; firstBadSeq: number | null; checked: number; starts: number }> {
  const api = `/teams/${team.teamId}/api/v1/audit`;
  const verify = await teamOk<{ ok: boolean; checked: number; first_bad_seq: number | null }>(
    service,
    `${api}/verify`,
    { token: team.token },
  );
  const starts = (
    await teamOk<{ items: unknown[] }>(service, `${api}?action=service.start&limit=1000`, { token: team.token })
  ).items.length;
  return { ok: verify.ok, firstBadSeq: verify.first_bad_seq, checked: verify.checked, starts };
}

/** Why a team's chain is not what its acknowledged writes make it, or null when it is. */
async function chainProblem(service: RunningTeamService, team: Team): Promise<string | null> {
  const chain = await chainState(service, team);
  if (!chain.ok) return `${team.teamId}: verify fails at seq ${chain.firstBadSeq}`;
  const expected = CREATION_ENTRIES + chain.starts + team.acknowledged;
  if (chain.checked === expected) return null;
  return `${team.teamId}: ${chain.checked} entries, expected ${expected} (${team.acknowledged} acknowledged writes, ${chain.starts} starts; ${team.failed} failed writes so far, which may have committed)`;
}

/** The service as it runs now: a cell that stops it answering gets it restarted on the same data root. */
interface Held {
  current: RunningTeamService;
  notes: string[];
  /** Set once the service's output must outlive the run (it stopped answering once). */
  keepLog: boolean;
}

/** Whether the service answers `GET /status` within 10 s. */
const answers = (service: RunningTeamService) =>
  fetch(`http://127.0.0.1:${service.port}/status`, { signal: AbortSignal.timeout(10_000) }).then(
    (r) => r.status === 200,
    () => false,
  );

/** The last error line of the service's output (which may be long: it logs every request). */
function lastError(logFile: string): string {
  const size = statSync(logFile).size;
  const length = Math.min(size, 64 * 1024);
  const buffer = Buffer.alloc(length);
  const fd = openSync(logFile, 'r');
  readSync(fd, buffer, 0, length, size - length);
  closeSync(fd);
  const lines = buffer
    .toString('utf8')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n');
  return (
    lines
      .reverse()
      .find((line) => /✘|\bERROR\b/.test(line) && !line.includes('"team_id"'))
      ?.trim()
      .slice(0, 200) ?? 'no error line in its output'
  );
}

async function runCell(held: Held, teams: Team[], clients: number, seconds: number): Promise<Cell> {
  const service = held.current;
  const name = `n${teams.length}m${clients}`;
  log(`${teams.length} team(s) × ${clients} client(s): ${seconds} s`);
  const count = (figures: WriteFigures) =>
    figures.teams.forEach((f, i) => {
      teams[i]!.acknowledged += f.acknowledged;
      teams[i]!.failed += f.errors;
    });
  const warm = await teamWrites(service.port, teams, clients, WARMUP_SECONDS, `${name}_warm`);
  count(warm);
  const cpu = treeCpu(service.process.pid!);
  const figures = await teamWrites(service.port, teams, clients, seconds, name);
  const cpuUsed = cpuSince(service.process.pid!, cpu);
  count(figures);
  const { p50, p99 } = percentiles(figures.latencies);
  const written = figures.teams.map((f) => f.acknowledged);
  const perWrite = (seconds: number) => (seconds * 1000) / written.reduce((a, b) => a + b, 0);
  if (!(await answers(service))) {
    held.notes.push(
      `${teams.length} × ${clients}: the service stopped answering (last error: ${lastError(service.logFile)}); restarted on the same data root to verify the chains; its output is kept in ${service.logFile}.`,
    );
    held.keepLog = true;
    await service.stop();
    held.current = await startTeamService(service.dataRoot, { logFile: service.logFile });
  }
  // One team at a time: the slot that lets one verify run at once (handlers/audit.ts) is the
  // isolate's, so a second team's verify meanwhile would be refused with 429.
  const badChains = (await inBatches(teams, 1, (team) => chainProblem(held.current, team))).filter(
    (p): p is string => p !== null,
  );
  return {
    teams: teams.length,
    clients,
    figures,
    p50,
    p99,
    errors: warm.teams.reduce((n, f) => n + f.errors, 0) + figures.teams.reduce((n, f) => n + f.errors, 0),
    fairness: Math.max(...written) / Math.min(...written),
    cpuPerWrite: perWrite(cpuUsed.seconds),
    cpuPerWriteByProcess: [...cpuUsed.byName]
      .map(([name, seconds]): [string, number] => [name, perWrite(seconds)])
      .sort((a, b) => b[1] - a[1]),
    badChains,
  };
}

const isTargetCell = (cell: Cell) => cell.teams === TARGET_CELL.teams && cell.clients === TARGET_CELL.clients;

function cellRow(cell: Cell): string[] {
  const { seconds } = cell.figures;
  const perTeam = cell.figures.teams.map((f) => perSecond(f.acknowledged, seconds));
  const total = perTeam.reduce((a, b) => a + b, 0);
  const fair = cell.fairness <= TARGETS.fairness;
  const target = isTargetCell(cell)
    ? `0 errors, exact chains, fairness ≤ ${TARGETS.fairness}, p99 ≤ ${TARGETS.p99Ms} ms`
    : '0 errors, exact chains';
  const met =
    cell.errors === 0 && cell.badChains.length === 0 && (!isTargetCell(cell) || (fair && cell.p99 <= TARGETS.p99Ms));
  return [
    `${cell.teams} × ${cell.clients}`,
    `${Math.round(total)}`,
    `${(total / cell.teams).toFixed(1)} (${Math.min(...perTeam).toFixed(1)}–${Math.max(...perTeam).toFixed(1)})`,
    Number.isFinite(cell.fairness)
      ? `${cell.fairness.toFixed(2)}×${fair ? '' : ` (> ${TARGETS.fairness})`}`
      : 'a team wrote nothing',
    ms(cell.p50),
    ms(cell.p99),
    Number.isFinite(cell.cpuPerWrite) ? ms(cell.cpuPerWrite) : 'no write',
    String(cell.errors),
    cell.badChains.length === 0 ? `${cell.teams} verify, exact` : `**${cell.badChains.length} wrong**`,
    target,
    met ? 'yes' : '**no**',
  ];
}

const COLUMNS = [
  'Teams × clients',
  'Writes/s, all teams',
  'Per team writes/s: mean (min–max)',
  'Fairness max/min',
  'p50',
  'p99',
  'Service CPU per write',
  'Errors',
  'Chains after the cell',
  'Target',
  'Met',
];

/** The targets, each PASS or FAIL. */
function verdicts(cells: Cell[]): { line: string; pass: boolean }[] {
  const target = cells.find(isTargetCell);
  const verdict = (pass: boolean, what: string) => ({ pass, line: `${pass ? 'PASS' : 'FAIL'}: ${what}` });
  return [
    verdict(
      cells.every((c) => c.errors === 0),
      `0 errors in every cell (${cells.reduce((n, c) => n + c.errors, 0)})`,
    ),
    verdict(
      cells.every((c) => c.badChains.length === 0),
      "after every cell, every team's chain verifies and holds exactly its acknowledged writes plus its creation and start entries",
    ),
    verdict(
      target !== undefined && target.fairness <= TARGETS.fairness,
      `fairness ≤ ${TARGETS.fairness} at ${TARGET_CELL.teams} × ${TARGET_CELL.clients} (${target?.fairness.toFixed(2) ?? 'not measured'})`,
    ),
    verdict(
      target !== undefined && target.p99 <= TARGETS.p99Ms,
      `p99 ≤ ${TARGETS.p99Ms} ms at ${TARGET_CELL.teams} × ${TARGET_CELL.clients} (${target ? ms(target.p99) : 'not measured'})`,
    ),
  ];
}

/** `--cells 8x10,1x50`: the grid's cells to run (each `teams x clients`), or every cell for null. */
export function parseCells(spec: string | null): { teams: number; clients: number }[] | null {
  if (spec === null) return null;
  const cells = spec.split(',').map((cell) => /^([1-9]\d*)x([1-9]\d*)$/.exec(cell.trim()));
  if (cells.some((m) => m === null))
    throw new Error(`--cells takes teams x clients pairs such as 8x10,1x50, not ${JSON.stringify(spec)}`);
  return cells.map((m) => ({ teams: Number(m![1]), clients: Number(m![2]) }));
}

export async function benchTeams({
  quick,
  seconds,
  cells: only,
}: {
  quick: boolean;
  seconds: number | null;
  cells: { teams: number; clients: number }[] | null;
}): Promise<void> {
  const cellSeconds = seconds ?? (quick ? 3 : 15);
  const dataRoot = mkdtempSync(join(tmpdir(), 'lpa-bench-teams-'));
  const held: Held = { current: null as unknown as RunningTeamService, notes: [], keepLog: false };
  const stop = () => held.current?.stop();
  const interrupted = () => void Promise.resolve(stop()).finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const cells: Cell[] = [];
  const { notes } = held;
  try {
    log('starting npm run start:team');
    held.current = await startTeamService(dataRoot);
    const creating = performance.now();
    const grid = only ?? TEAMS.flatMap((teams) => CLIENTS.map((clients) => ({ teams, clients })));
    const teams = await makeTeams(held.current, Math.max(...grid.map((c) => c.teams)));
    notes.push(
      `Creating ${teams.length} teams and an admin token in each (${CREATING_AT_ONCE} at a time) took ${((performance.now() - creating) / 1000).toFixed(1)} s (not a target).`,
    );
    for (const { teams: teamCount, clients } of grid) {
      const cell = await runCell(held, teams.slice(0, teamCount), clients, cellSeconds);
      cells.push(cell);
      if (Number.isFinite(cell.cpuPerWrite))
        notes.push(
          `${cell.teams} × ${cell.clients}, service CPU per write by process: ${cell.cpuPerWriteByProcess.map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`).join(', ')}.`,
        );
      for (const sample of cell.figures.samples)
        notes.push(`${cell.teams} × ${cell.clients}, failed writes: ${sample}`);
      const [first, ...more] = cell.badChains;
      if (first)
        notes.push(
          `${cell.teams} × ${cell.clients}, chains: ${first}${more.length ? `; and ${more.length} more teams` : ''}`,
        );
    }
  } catch (error) {
    held.keepLog = true;
    log(`the service's output is kept in ${dataRoot}.log`);
    throw error;
  } finally {
    await stop();
    rmSync(dataRoot, { recursive: true, force: true });
    if (!held.keepLog) rmSync(`${dataRoot}.log`, { force: true });
  }

  const rows = cells.map(cellRow);
  printGrid(COLUMNS, rows);
  const lines = verdicts(cells);
  for (const { line } of lines) console.log(line);
  for (const note of notes) console.log(`- ${note}`);
  // A run of some cells would overwrite the full grid with a part of it: it is printed only.
  if (only !== null) return;
  writeSection(new URL('RESULTS.md', import.meta.url).pathname, 'teams', [
    `Written by \`npm run bench -- --teams${quick ? ' --quick' : ''}${seconds === null ? '' : ` --seconds ${seconds}`}\`: ${cellSeconds} s per cell after a ${WARMUP_SECONDS} s warm-up, audited writes (\`PUT …/automation/globals/{name}\` with \`expected_revision\`), every client on a keep-alive connection of its own.`,
    '',
    machine('the load generator (node:http writers, one keep-alive connection per client, in the bench process)'),
    '',
    ...markdownTable(COLUMNS, rows),
    '',
    ...lines.map(({ line }) => `- ${line}`),
    ...notes.map((note) => `- ${note}`),
  ]);
  // A write lost or a chain that does not hold its writes is a fault, not a figure of a busy machine.
  if (!lines.slice(0, 2).every((l) => l.pass)) process.exitCode = 1;
}
