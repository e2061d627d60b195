/**
 * Every machine a witness of its team's chain (docs/teams.md#audit-across-machines): two local
 * services joined to one `npm run start:team`, writes through both, then the attack the witness is
 * there for: the team's SQLite file rewritten while the team service is stopped, an entry's details
 * changed and the chain re-hashed from it, so that the team's own verify passes. `lpa team verify`
 * on each machine names the fork at the first rewritten seq that machine saw; then the team's rows
 * from that seq on cut from the file, and verify names the roll-back. The other findings, and their
 * exact fields, are made by a team the test plays (team-link-edges.test.ts).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainHash } from '../../storage/audit/chain';
import { entryOf, type AuditRow } from '../../storage/audit/record';
import { localAssertion } from '../../scripts/local-access.mjs';
import { lpaRunner } from './cli-run';
import { startService, type RunningService } from './service';
import { adminTeamToken, createTeam, startTeamService, teamOk, type RunningTeamService } from './team-service';

const TEAM = 'witness-team';
const OWNER = 'owner@example.com';

let team: RunningTeamService;
const machines: RunningService[] = [];
/** The seqs each machine saw in the team heads of its answers. */
const witnessed: number[][] = [[], []];

async function put(machine: number, name: string): Promise<void> {
  const service = machines[machine]!;
  const response = await fetch(`http://127.0.0.1:${service.port}/api/v1/automation/globals/${name}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ value: `${name} from machine ${machine}`, expected_revision: 0 }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const head = response.headers.get('x-lpa-team-head');
  expect(head).toMatch(/^\d+,[0-9a-f]{64}$/);
  witnessed[machine]!.push(Number(head!.split(',')[0]));
}

const verify = (machine: number) => lpaRunner(() => machines[machine]!)(['team', 'verify', '--json']);

/**
 * The attack: from `seq` on, the team's audit rows rewritten in its object's SQLite file, the entry at
 * `seq` with other details and every hash from there recomputed, so that the chain is whole again.
 */
function rewriteTeamChain(dataRoot: string, seq: number): void {
  const db = teamDatabase(dataRoot);
  const rows = db.prepare('SELECT * FROM audit_log WHERE seq >= ? ORDER BY seq').all(seq) as unknown as (AuditRow & {
    hash: string;
  })[];
  let prev = (db.prepare('SELECT hash FROM audit_log WHERE seq = ?').get(seq - 1) as { hash: string }).hash;
  const update = db.prepare('UPDATE audit_log SET details = ?, hash = ? WHERE seq = ?');
  db.exec('BEGIN');
  for (const row of rows) {
    const entry = entryOf(row);
    if (row.seq === seq) entry.details = { ...entry.details, rewritten: 'by whoever holds the file' };
    prev = chainHash(prev, entry);
    update.run(entry.details === null ? null : JSON.stringify(entry.details), prev, row.seq);
  }
  db.exec('COMMIT');
  db.close();
}

/** The team object's SQLite file, opened as whoever holds it would (the team service stopped). */
function teamDatabase(dataRoot: string): DatabaseSync {
  const folder = join(dataRoot, 'state/v3/do/lpa-team-TeamObject');
  const files = readdirSync(folder).filter((name) => name.endsWith('.sqlite'));
  const file = files.find((name) => {
    const db = new DatabaseSync(join(folder, name));
    try {
      return db.prepare('SELECT count(*) AS n FROM sqlite_master WHERE name = ?').get('audit_log')!.n === 1;
    } finally {
      db.close();
    }
  });
  return new DatabaseSync(join(folder, file!));
}

beforeAll(async () => {
  team = await startTeamService();
  expect((await createTeam(team, TEAM, OWNER)).status).toBe(201);
  for (const index of [0, 1]) {
    const { token } = await adminTeamToken(team, TEAM, OWNER, `machine-${index}`);
    const tokenFile = join(team.dataRoot, `machine-${index}.token`);
    writeFileSync(tokenFile, token, { mode: 0o600 });
    machines.push(
      await startService('workerd', undefined, {
        LPA_TEAM_URL: `http://127.0.0.1:${team.port}/teams/${TEAM}`,
        LPA_TEAM_TOKEN_FILE: tokenFile,
      }),
    );
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(machines.map((machine) => machine.stop()));
  await team?.stop();
});

describe('lpa team verify', () => {
  it('is ok while the team keeps the history both machines saw', async () => {
    for (const [machine, name] of [
      [0, 'a1'],
      [1, 'b1'],
      [0, 'a2'],
      [1, 'b2'],
      [0, 'a3'],
    ] as const)
      await put(machine, name);
    for (const machine of [0, 1]) {
      const run = await verify(machine);
      expect(run.code, run.stderr).toBe(0);
      const answer = JSON.parse(run.stdout);
      expect(answer).toMatchObject({ ok: true, finding: null, fork_at: null });
      expect(answer.checked).toBeGreaterThanOrEqual(witnessed[machine]!.length);
      witnessed[machine]!.push(answer.team_head.seq);
    }
    const status = await fetch(`http://127.0.0.1:${machines[0]!.port}/api/v1/team`, {
      headers: { authorization: `Bearer ${machines[0]!.token}` },
    });
    const link = await status.json();
    expect(link).toMatchObject({
      joined: true,
      url: `http://127.0.0.1:${team.port}/teams/${TEAM}`,
      machine_id: expect.any(String),
    });
    expect(link.witness.checkpoint.checkpoint.seq).toBeGreaterThanOrEqual(Math.max(...witnessed[0]!));
  }, 60_000);

  it('names the fork at the first rewritten seq each machine witnessed, though the team verifies its own chain', async () => {
    const rewritten = witnessed[0]![1]!; // machine 0's second write
    await team.stop();
    rewriteTeamChain(team.dataRoot, rewritten);
    team = await startTeamService(team.dataRoot, { port: team.port });
    const own = await teamOk(team, `/teams/${TEAM}/api/v1/audit/verify`, {
      assertion: await localAssertion(team.dataRoot, OWNER),
    });
    expect(own.ok).toBe(true);

    for (const machine of [0, 1]) {
      const run = await verify(machine);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const answer = JSON.parse(run.stdout);
      const expected = Math.min(...witnessed[machine]!.filter((seq) => seq >= rewritten));
      expect(answer).toMatchObject({ ok: false, finding: 'fork', fork_at: expected });
      expect(answer.team_hash).not.toBe(answer.witnessed_hash);
      const human = await lpaRunner(() => machines[machine]!)(['team', 'verify']);
      expect(human.code).toBe(1);
      expect(human.stdout).toContain(`FORK at seq ${expected}`);
    }
    expect(witnessed[1]!.filter((seq) => seq >= rewritten)[0]).not.toBe(rewritten); // machine 1 never saw the rewritten entry itself
  }, 120_000);

  it("names the roll-back when the team's rows from a witnessed seq on are cut: its head is before what the machines saw", async () => {
    const cut = witnessed[0]![1]!; // the seq rewritten above, which machine 0 saw
    await team.stop();
    const db = teamDatabase(team.dataRoot);
    db.prepare('DELETE FROM audit_log WHERE seq >= ?').run(cut);
    db.close();
    team = await startTeamService(team.dataRoot, { port: team.port });

    for (const machine of [0, 1]) {
      const run = await verify(machine);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const answer = JSON.parse(run.stdout);
      expect(answer).toMatchObject({ ok: false, finding: 'rolled_back', team_hash: null, checked: 0 });
      // The team goes on writing after its restart, so its head may have grown back past cut - 1, not past what was seen.
      expect(answer.team_head.seq).toBeGreaterThanOrEqual(cut - 1);
      expect(answer.team_head.seq).toBeLessThan(Math.max(...witnessed[machine]!));
      const expected = Math.min(...witnessed[machine]!.filter((seq) => seq > answer.team_head.seq));
      expect(answer.fork_at).toBe(expected);
      const human = await lpaRunner(() => machines[machine]!)(['team', 'verify']);
      expect(human.code).toBe(1);
      expect(human.stdout).toContain(`ROLLED BACK at seq ${expected}`);
    }
  }, 120_000);
});
