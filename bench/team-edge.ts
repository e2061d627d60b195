/**
 * `npm run bench -- --team-edge [--quick] [--seconds S]`: the forwarding's own cost. In one run, a
 * local service joined to a local team service (`npm start` with LPA_TEAM_URL, `npm run start:team`)
 * and the team service itself answer the same calls: a scoped profile page and an audited `PUT` of
 * a global, each side with a token of the same scopes. The ratio local/direct is what the machine's
 * hop costs (docs/benchmarks.md#a-machine-in-a-team). Written to its section of bench/RESULTS.md
 * unless `--seconds` asked for a try-out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../test/node/service';
import {
  adminTeamToken,
  createTeam,
  joinMachine,
  startTeamService,
  teamOk,
  type RunningTeamService,
} from '../test/node/team-service';
import { readLoad, writeLoad, type LoadFigures } from './load';
import { machine, markdownTable, printGrid, writeSection } from './report';

const TEAM = 'edge';
const OWNER = 'owner@edge.example';
const CONNECTIONS = 10;
const PROFILES = 200;
const PAGE = '/api/v1/profiles?limit=50';
const READ_SCOPES = ['profiles:read'];
const WRITE_SCOPES = ['runtime:control', 'secrets:read', 'rpa:write'];
const COLUMNS = [
  'call',
  'through the machine',
  'p50 / p99',
  'direct to the team',
  'p50 / p99',
  'machine / direct (req/s)',
  'failed',
];

const log = (message: string) => console.error(`[bench --team-edge] ${message}`);
const ms = (v: number) => `${v.toFixed(1)} ms`;

/** One side of the comparison: where its API is and the token of each call. */
interface Side {
  base: string;
  read: string;
  write: string;
}

interface Measured {
  call: string;
  machine: LoadFigures;
  direct: LoadFigures;
}

function measuredRow({ call, machine: edge, direct }: Measured): string[] {
  return [
    call,
    `${Math.round(edge.rps)} req/s`,
    `${ms(edge.p50)} / ${ms(edge.p99)}`,
    `${Math.round(direct.rps)} req/s`,
    `${ms(direct.p50)} / ${ms(direct.p99)}`,
    `${(edge.rps / direct.rps).toFixed(2)}×`,
    `${edge.failed} / ${direct.failed}`,
  ];
}

/** A team token of `scopes`, made with the owner's admin team token. */
async function teamToken(team: RunningTeamService, admin: string, name: string, scopes: string[]): Promise<string> {
  return (
    await teamOk<{ token: string }>(team, `/teams/${TEAM}/api/v1/tokens`, {
      method: 'POST',
      token: admin,
      body: { name, scopes },
    })
  ).token;
}

/** A local token of `scopes`, made with the machine's admin token. */
async function localToken(service: RunningService, name: string, scopes: string[]): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${service.port}/api/v1/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, scopes }),
  });
  if (answer.status !== 201)
    throw new Error(`POST /api/v1/tokens on the machine answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { token: string }).token;
}

async function both(
  call: string,
  run: (side: Side, name: string) => Promise<LoadFigures>,
  edge: Side,
  direct: Side,
): Promise<Measured> {
  log(`${call}: through the machine`);
  const machineFigures = await run(edge, 'machine');
  log(`${call}: direct to the team`);
  return { call, machine: machineFigures, direct: await run(direct, 'direct') };
}

export async function benchTeamEdge({ quick, seconds }: { quick: boolean; seconds: number | null }): Promise<void> {
  const runSeconds = seconds ?? (quick ? 3 : 10);
  const work = mkdtempSync(join(tmpdir(), 'lpa-bench-team-edge-'));
  let team: RunningTeamService | null = null;
  let edge: RunningService | null = null;
  const results: Measured[] = [];
  try {
    log('starting npm run start:team');
    team = await startTeamService(join(work, 'team'));
    if ((await createTeam(team, TEAM, OWNER)).status !== 201) throw new Error('the team could not be created');
    const admin = (await adminTeamToken(team, TEAM, OWNER, 'bench owner')).token;
    for (let i = 0; i < PROFILES; i++)
      await teamOk(
        team,
        `/teams/${TEAM}/api/v1/profiles`,
        { method: 'POST', token: admin, body: { name: `edge ${i}` } },
        201,
      );
    log('starting npm start joined to it');
    edge = await joinMachine(team, TEAM, OWNER, 'bench machine', join(work, 'machine'));
    const machineSide: Side = {
      base: `http://127.0.0.1:${edge.port}`,
      read: await localToken(edge, 'bench read', READ_SCOPES),
      write: await localToken(edge, 'bench write', WRITE_SCOPES),
    };
    const directSide: Side = {
      base: `http://127.0.0.1:${team.port}/teams/${TEAM}`,
      read: await teamToken(team, admin, 'bench read', READ_SCOPES),
      write: await teamToken(team, admin, 'bench write', WRITE_SCOPES),
    };

    results.push(
      await both(
        `GET …/profiles?limit=50 (${CONNECTIONS} conn)`,
        (side) => readLoad(`${side.base}${PAGE}`, { authorization: `Bearer ${side.read}` }, CONNECTIONS, runSeconds),
        machineSide,
        directSide,
      ),
    );
    results.push(
      await both(
        `PUT …/automation/globals/{name}, audited (${CONNECTIONS} conn)`,
        async (side, name) =>
          (await writeLoad(side.base, side.write, `edge_${name}`, CONNECTIONS, runSeconds, null)).figures,
        machineSide,
        directSide,
      ),
    );
  } finally {
    await Promise.all([edge?.stop(), team?.stop()]);
    rmSync(work, { recursive: true, force: true }); // the team service's log is in it too
  }

  const rows = results.map(measuredRow);
  printGrid(COLUMNS, rows);
  const failed = results.some((r) => r.machine.failed > 0 || r.direct.failed > 0);
  if (failed) process.exitCode = 1;
  if (seconds !== null) return log('--seconds: a try-out, bench/RESULTS.md left as it was');
  writeSection(new URL('RESULTS.md', import.meta.url).pathname, 'team-edge', [
    `Written by \`npm run bench -- --team-edge${quick ? ' --quick' : ''}\`: ${runSeconds} s per call and side after a 1 s warm-up, ${CONNECTIONS} keep-alive connections, a team of ${PROFILES} profiles. "Through the machine": \`npm start\` joined to \`npm run start:team\` with a local token; "direct": the team service with a team token of the same scopes.`,
    '',
    machine(),
    '',
    ...markdownTable(COLUMNS, rows),
  ]);
}
