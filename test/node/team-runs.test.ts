/**
 * Team profiles run on one machine at a time (docs/teams.md#runs-across-machines): one
 * `npm run start:team` with a short lease, two `npm start` machines joined to it, each starting real
 * headless Chromium. Start on a, b is refused naming a, stop on a, b starts; a's browser crashes and
 * its lease is given back at once; an admin breaks a's
 * lease and a's browser stops; a's service killed, b starts once a's lease expired and no sooner;
 * the team gone, a start is 503 and a running browser stops once its lease could not be renewed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAssertion } from '../../scripts/local-access.mjs';
import { ensureChromium } from './chromium';
import { killTree } from './process-tree';
import { raw, startService, type RawResponse, type RunningService } from './service';
import {
  adminTeamToken,
  createTeam,
  startTeamService,
  teamOk,
  teamRequest,
  type RunningTeamService,
} from './team-service';

const browser = ensureChromium();
/** A start of the team service bundles the Worker first: far more than the project's 30 s on a loaded machine. */
const START_MS = 120_000;
/** Short, so that expiry is seen in seconds; renewals come every 2 s. */
const LEASE_MS = 6_000;
const TEAM = 'team-runs';
const OWNER = 'owner@runs.example';

const work = mkdtempSync(join(tmpdir(), 'lpa-team-runs-'));
let team: RunningTeamService;
let ownerToken: string;
let a: RunningService;
let b: RunningService;

function call(
  machine: RunningService,
  path: string,
  { method = 'GET', body }: { method?: string; body?: unknown } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${machine.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return raw(machine.port, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

const start = (machine: RunningService, id: string) =>
  call(machine, `/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } });

async function newProfile(name: string, machine = a): Promise<string> {
  const created = await call(machine, '/api/v1/profiles', { method: 'POST', body: { name } });
  expect(created.status).toBe(201);
  return created.json.id;
}

/** The browsers of this machine running on a folder under `root`. */
function browsersUnder(root: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`--user-data-dir=${root}`) && !line.includes('--type='))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The team chain's lease entries of one profile, oldest first, as `<action> <machine label>`. */
async function leaseEntries(profileId: string): Promise<string[]> {
  const page = await teamOk<{ items: any[] }>(team, `/teams/${TEAM}/api/v1/audit?limit=1000`, { token: ownerToken });
  return page.items
    .filter((entry) => entry.action.startsWith('runs.lease_') && entry.entity_id === profileId)
    .reverse()
    .map((entry) => `${entry.action} ${entry.details.machine_label}`);
}

beforeAll(async () => {
  if ('skip' in browser) return;
  team = await startTeamService(join(work, 'team'), { env: { LPA_RUN_LEASE_MS: String(LEASE_MS) } });
  expect((await createTeam(team, TEAM, OWNER)).status).toBe(201);
  ownerToken = (await adminTeamToken(team, TEAM, OWNER, 'owner script')).token;
  const teamUrl = `http://127.0.0.1:${team.port}/teams/${TEAM}`;
  const [machineA, machineB] = await Promise.all(
    ['machine a', 'machine b'].map(async (name) => {
      const file = join(work, `${name.replace(' ', '-')}.token`);
      writeFileSync(file, `${(await adminTeamToken(team, TEAM, OWNER, name)).token}\n`, { mode: 0o600 });
      return startService('workerd', join(work, name.replace(' ', '-')), {
        LPA_TEAM_URL: teamUrl,
        LPA_TEAM_TOKEN_FILE: file,
        LPA_MACHINE_LABEL: name,
        LPA_BROWSER: (browser as { path: string }).path,
      });
    }),
  );
  a = machineA!;
  b = machineB!;
}, 3 * START_MS);

afterAll(async () => {
  // a is killed by a test; its stop would wait for an exit that has happened.
  await Promise.all([a?.process.signalCode === null ? a.stop() : undefined, b?.stop(), team?.stop()]);
}, START_MS);

describe.skipIf('skip' in browser)('team profiles on two machines', { timeout: 120_000 }, () => {
  it("runs a profile on one machine at a time: b's start while a runs is 409 naming a; after a's stop b starts", async () => {
    const id = await newProfile('one at a time');
    const onA = await start(a, id);
    expect(onA.status, JSON.stringify(onA.json)).toBe(200);
    expect(onA.json).toMatchObject({ profile_id: id, state: 'running' });

    const listed = await call(b, '/api/v1/team/runs');
    expect(listed.status).toBe(200);
    const lease = listed.json.items.find((item: { profile_id: string }) => item.profile_id === id);
    expect(lease).toMatchObject({
      run_id: onA.json.id,
      machine_label: 'machine a',
      who: 'machine a',
      lease_ms: LEASE_MS,
    });
    expect(lease.expires_at - lease.renewed_at).toBe(LEASE_MS);

    const refused = await start(b, id);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({
      code: 'run.locked_elsewhere',
      details: { profile_id: id, machine_label: 'machine a', who: 'machine a', since: lease.since },
    });
    expect(browsersUnder(b.dataRoot)).toEqual([]);

    // Past a whole lease, a's renewals (its browser answers DevTools) keep it.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 2_000));
    const still = await start(b, id);
    expect(still.status).toBe(409);
    expect(still.json.error.details.expires_at).toBeGreaterThan(lease.expires_at);
    const leases = await teamOk(team, `/teams/${TEAM}/api/v1/runs`, { token: ownerToken });
    expect(leases.items.map((item: { profile_id: string }) => item.profile_id)).toContain(id);

    expect((await call(a, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);
    expect(
      (await call(b, '/api/v1/team/runs')).json.items.some((item: { profile_id: string }) => item.profile_id === id),
    ).toBe(false);
    const onB = await start(b, id);
    expect(onB.status, JSON.stringify(onB.json)).toBe(200);
    expect((await call(b, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);

    expect(await leaseEntries(id)).toEqual([
      'runs.lease_grant machine a',
      'runs.lease_release machine a',
      'runs.lease_grant machine b',
      'runs.lease_release machine b',
    ]);
  });

  it('answers a start of a profile the team does not have 404, and takes no lease', async () => {
    const missing = await start(a, 'no-such-profile');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('resource.not_found');
  });

  it("gives a crashed browser's lease back at once: b starts without waiting for it to expire", async () => {
    const id = await newProfile('crashed browser');
    const onA = await start(a, id);
    expect(onA.status, JSON.stringify(onA.json)).toBe(200);
    process.kill(onA.json.pid, 'SIGKILL');
    const ended = await until('the crash on a', async () => {
      const run = await call(a, `/api/v1/profiles/${id}/run`);
      return run.json.state === 'crashed' ? run.json : null;
    });
    expect(ended).toMatchObject({ id: onA.json.id, end_reason: 'exited' });
    const onB = await start(b, id);
    expect(onB.status, JSON.stringify(onB.json)).toBe(200);
    expect((await call(b, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);
    // Released by a, not taken over after an expiry.
    const grantOnB = (
      await teamOk<{ items: any[] }>(team, `/teams/${TEAM}/api/v1/audit?limit=1000`, { token: ownerToken })
    ).items.find(
      (item) =>
        item.action === 'runs.lease_grant' && item.entity_id === id && item.details.machine_label === 'machine b',
    );
    expect(grantOnB.details.took_over_expired).toBeUndefined();
    expect((await leaseEntries(id)).slice(0, 3)).toEqual([
      'runs.lease_grant machine a',
      'runs.lease_release machine a',
      'runs.lease_grant machine b',
    ]);
  });

  it("lets an owner break a lease (audited); a's browser stops with lease_lost, and b may start", async () => {
    const id = await newProfile('broken lease');
    const onA = await start(a, id);
    expect(onA.status, JSON.stringify(onA.json)).toBe(200);
    expect(browsersUnder(join(a.dataRoot, 'browsers', id))).toHaveLength(1);

    // A member may not break it: owners and admins only.
    const member = 'member@runs.example';
    await teamOk(
      team,
      `/teams/${TEAM}/api/v1/members/${member}`,
      { method: 'PUT', token: ownerToken, body: { role: 'member' } },
      200,
    );
    const byMember = await teamRequest(team, `/teams/${TEAM}/api/v1/runs/${id}`, {
      method: 'DELETE',
      assertion: await localAssertion(team.dataRoot, member),
    });
    expect(byMember.status).toBe(403);

    const broken = await teamRequest(team, `/teams/${TEAM}/api/v1/runs/${id}`, {
      method: 'DELETE',
      assertion: await localAssertion(team.dataRoot, OWNER),
    });
    expect(broken.status, JSON.stringify(broken.json)).toBe(200);
    expect(broken.json).toMatchObject({ profile_id: id, run_id: onA.json.id, machine_label: 'machine a' });

    const ended = await until('the lease_lost end on a', async () => {
      const run = await call(a, `/api/v1/profiles/${id}/run`);
      return run.json.state === 'stopped' ? run.json : null;
    });
    expect(ended).toMatchObject({ id: onA.json.id, end_reason: 'lease_lost' });
    expect(browsersUnder(join(a.dataRoot, 'browsers', id))).toEqual([]);

    const onB = await start(b, id);
    expect(onB.status, JSON.stringify(onB.json)).toBe(200);
    expect((await call(b, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);
    const chain = await leaseEntries(id);
    expect(chain.slice(0, 3)).toEqual([
      'runs.lease_grant machine a',
      'runs.lease_break machine a',
      'runs.lease_grant machine b',
    ]);
  });

  it("frees a killed machine's lease when it expires, and no sooner", async () => {
    const id = await newProfile('vanished machine');
    expect((await start(a, id)).status).toBe(200);
    await killTree(a.process.pid!);
    const refused = await start(b, id);
    expect(refused.status).toBe(409);
    const expiresAt: number = refused.json.error.details.expires_at;
    const onB = await until('a start on b', async () => {
      const answer = await start(b, id);
      if (answer.status === 409) return null;
      return { answer, at: Date.now() };
    });
    expect(onB.answer.status, JSON.stringify(onB.answer.json)).toBe(200);
    expect(onB.at).toBeGreaterThanOrEqual(expiresAt);
    const entry = (
      await teamOk<{ items: any[] }>(team, `/teams/${TEAM}/api/v1/audit?limit=1000`, { token: ownerToken })
    ).items.find(
      (item) =>
        item.action === 'runs.lease_grant' && item.entity_id === id && item.details.machine_label === 'machine b',
    );
    expect(entry.details.took_over_expired).toMatchObject({ machine_label: 'machine a' });
    expect((await call(b, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);
  });

  it('with the team gone: a start is 503 team.unreachable, and a running browser stops once its lease could not be renewed', async () => {
    // a was killed above: b alone is left.
    const id = await newProfile('team gone', b);
    const running = await start(b, id);
    expect(running.status).toBe(200);
    const other = await newProfile('not started', b);
    await team.stop();
    const refused = await start(b, other);
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe('team.unreachable');
    const ended = await until(
      'the lease_lost end on b',
      async () => {
        const run = await call(b, `/api/v1/profiles/${id}/run`);
        return run.json.state === 'stopped' ? run.json : null;
      },
      LEASE_MS + 30_000,
    );
    expect(ended).toMatchObject({ id: running.json.id, end_reason: 'lease_lost' });
    expect(ended.ended_at - ended.started_at).toBeGreaterThanOrEqual(LEASE_MS);
    expect(browsersUnder(join(b.dataRoot, 'browsers', id))).toEqual([]);
  });
});
