/**
 * Team profiles run on one machine at a time (docs/teams.md#runs-across-machines): one
 * `npm run start:team` with a short lease, two `npm start` machines joined to it, each starting real
 * headless Chromium. Start on a, b is refused naming a, stop on a, b starts; a's browser crashes and
 * its lease is given back at once; an admin breaks a's
 * lease and a's browser stops; a's service killed, b starts once a's lease expired and no sooner;
 * the team gone, a start is 503 and a running browser stops once its lease could not be renewed.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAssertion } from '../../scripts/local-access.mjs';
import { ensureChromium } from './chromium';
import { browsersUnder, killTree } from './process-tree';
import { httpProxy } from './http-proxy';
import { raw, type RawResponse, type RunningService } from './service';
import {
  adminTeamToken,
  createTeam,
  joinMachine,
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
/** The local test site whose cookie and local storage travel. */
let site: Server;
let siteUrl: string;

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

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The team chain's entries of one profile, oldest first. */
async function chainOf(profileId: string): Promise<any[]> {
  const page = await teamOk<{ items: any[] }>(team, `/teams/${TEAM}/api/v1/audit?limit=1000`, { token: ownerToken });
  return page.items.filter((entry) => entry.entity_id === profileId).reverse();
}

/** The team chain's lease entries of one profile, oldest first, as `<action> <machine label>`. */
async function leaseEntries(profileId: string): Promise<string[]> {
  return (await chainOf(profileId))
    .filter((entry) => entry.action.startsWith('runs.lease_'))
    .map((entry) => `${entry.action} ${entry.details.machine_label}`);
}

/** A page of the local test site in a run's browser, connected as a user would, for `work`. */
async function onPage<T>(endpoint: string, work: (page: Page) => Promise<T>): Promise<T> {
  const connected = await puppeteer.connect({ browserWSEndpoint: endpoint });
  try {
    const page = await connected.newPage();
    await page.goto(siteUrl);
    return await work(page);
  } finally {
    await connected.disconnect();
  }
}

/** Whether any file the team service keeps (its simulated bucket among them) holds `text` in clear. */
function bucketHolds(root: string, text: string): boolean {
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return files.some((file) => readFileSync(join(file.parentPath, file.name)).includes(text));
}

beforeAll(async () => {
  if ('skip' in browser) return;
  site = createServer((req, res) => {
    if (req.url === '/set') res.setHeader('set-cookie', 'travel=from-a; Max-Age=86400; Path=/');
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>travelling page</title>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  team = await startTeamService(join(work, 'team'), { env: { LPA_RUN_LEASE_MS: String(LEASE_MS) } });
  expect((await createTeam(team, TEAM, OWNER)).status).toBe(201);
  ownerToken = (await adminTeamToken(team, TEAM, OWNER, 'owner script')).token;
  const [machineA, machineB] = await Promise.all(
    ['machine a', 'machine b'].map((name) =>
      joinMachine(team, TEAM, OWNER, name, join(work, name.replace(' ', '-')), {
        LPA_BROWSER: (browser as { path: string }).path,
      }),
    ),
  );
  a = machineA!;
  b = machineB!;
}, 3 * START_MS);

afterAll(async () => {
  // a is killed by a test; its stop would wait for an exit that has happened.
  await Promise.all([a?.process.signalCode === null ? a.stop() : undefined, b?.stop(), team?.stop()]);
  site?.close();
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
    // The team's profile record says where it runs, to every machine of the team.
    const record = await call(b, `/api/v1/profiles/${id}`);
    expect(record.json).toMatchObject({
      running: true,
      running_on: { machine_label: 'machine a', who: 'machine a', since: lease.since },
    });

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
    expect((await call(b, `/api/v1/profiles/${id}`)).json).toMatchObject({ running: false, running_on: null });
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
    // a hands the profile back once its browser data is with the team (pack, upload, then release),
    // which a busy machine can make outlast the crash's record by a moment; well within a lease.
    const crashedAt = Date.now();
    await until("a's hand-back", async () =>
      (await call(b, '/api/v1/team/runs')).json.items.every((item: { profile_id: string }) => item.profile_id !== id)
        ? true
        : null,
    );
    expect(Date.now() - crashedAt).toBeLessThan(LEASE_MS);
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

  it("carries a profile's browser data to the next machine: a cookie and local storage set on a are there on b", async () => {
    const id = await newProfile('travelling');
    const onA = await start(a, id);
    expect(onA.status, JSON.stringify(onA.json)).toBe(200);
    await onPage(onA.json.ws_endpoint, async (page) => {
      await page.goto(`${siteUrl}set`);
      await page.evaluate(() => localStorage.setItem('travel', 'from-a'));
    });
    expect((await call(a, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);

    const onB = await start(b, id);
    expect(onB.status, JSON.stringify(onB.json)).toBe(200);
    const seen = await onPage(onB.json.ws_endpoint, (page) =>
      page.evaluate(() => [document.cookie, localStorage.getItem('travel')]),
    );
    expect(seen).toEqual(['travel=from-a', 'from-a']);
    // b changes it; a, which still has its own older folder, gets b's on its next start.
    await onPage(onB.json.ws_endpoint, (page) => page.evaluate(() => localStorage.setItem('travel', 'from-b')));
    expect((await call(b, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);
    const again = await start(a, id);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(await onPage(again.json.ws_endpoint, (page) => page.evaluate(() => localStorage.getItem('travel')))).toBe(
      'from-b',
    );
    expect((await call(a, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);

    // The team's chain names each upload: who, under which fencing number, its hash and size.
    const uploads = (await chainOf(id)).filter((entry) => entry.action === 'runs.bundle_upload');
    expect(uploads.map((entry) => [entry.details.machine_label, entry.details.fencing])).toEqual([
      ['machine a', 1],
      ['machine b', 2],
      ['machine a', 3],
    ]);
    for (const upload of uploads) {
      expect(upload.details.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(upload.details.size).toBeGreaterThan(0);
    }
    // What travels is encrypted: no part in the team's bucket holds the cookie's value in clear.
    expect(bucketHolds(team.dataRoot, 'from-a')).toBe(false);
  });

  it('refuses a stale, a corrupt, a truncated and a too large upload, and keeps the newest version', async () => {
    const id = await newProfile('guarded data');
    const machineToken = readFileSync(join(work, 'machine-a.token'), 'utf8').trim();
    const asMachine = (path: string, method: string, body?: unknown) =>
      teamRequest(team, `/teams/${TEAM}/api/v1/runs/${id}${path}`, { method, token: machineToken, body });
    const take = async () => {
      const run_id = crypto.randomUUID();
      const lease = await asMachine('/lease', 'POST', { run_id, machine_label: 'script' });
      expect(lease.status, JSON.stringify(lease.json)).toBe(200);
      const opened = await asMachine('/bundle/open', 'POST', { run_id });
      expect(opened.status, JSON.stringify(opened.json)).toBe(200);
      return { run_id, fencing: lease.json.fencing as number, opened: opened.json };
    };
    const part = (bytes: Buffer) => bytes.toString('base64');
    const upload = async ({ run_id, fencing }: { run_id: string; fencing: number }, parts: Buffer[]) => {
      const run = { run_id, fencing };
      for (const [index, bytes] of parts.entries())
        expect((await asMachine(`/bundle/parts/${index}`, 'PUT', { ...run, data: part(bytes) })).status).toBe(200);
      return {
        ...run,
        parts: parts.length,
        size: parts.reduce((sum, bytes) => sum + bytes.length, 0),
        sha256: createHash('sha256').update(Buffer.concat(parts)).digest('hex'),
      };
    };

    const first = await take();
    expect(first.opened).toMatchObject({ bundle: null, max_bytes: 256 * 1024 * 1024 });
    expect(Buffer.from(first.opened.key, 'base64')).toHaveLength(32);
    const kept = await upload(first, [Buffer.from('version one, part one'), Buffer.from('part two')]);
    const committed = await asMachine('/bundle', 'POST', kept);
    expect(committed.status, JSON.stringify(committed.json)).toBe(200);
    expect(committed.json).toMatchObject({ profile_id: id, fencing: first.fencing, parts: 2, sha256: kept.sha256 });

    // Another run of the same lease holder cannot write under an older fencing number.
    expect((await asMachine('/lease/release', 'POST', { run_id: first.run_id })).status).toBe(200);
    const second = await take();
    expect(second.fencing).toBe(first.fencing + 1);
    expect(second.opened.bundle).toMatchObject({ sha256: kept.sha256, fencing: first.fencing });
    expect(second.opened.key).toBe(first.opened.key);
    const stale = await asMachine('/bundle/parts/0', 'PUT', {
      run_id: first.run_id,
      fencing: first.fencing,
      data: part(Buffer.from('old')),
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({
      code: 'bundle.stale',
      details: { profile_id: id, fencing: first.fencing, lease_fencing: second.fencing },
    });

    // Corrupt: the parts do not hash to what the commit names.
    const altered = await upload(second, [Buffer.from('version two')]);
    const corrupt = await asMachine('/bundle', 'POST', { ...altered, sha256: 'a'.repeat(64) });
    expect(corrupt.status).toBe(422);
    expect(corrupt.json.error.code).toBe('bundle.corrupt');
    // Truncated: a part named was never sent.
    const truncated = await upload(second, [Buffer.from('version two')]);
    const cut = await asMachine('/bundle', 'POST', { ...truncated, parts: 2 });
    expect(cut.status).toBe(422);
    expect(cut.json.error).toMatchObject({
      code: 'bundle.corrupt',
      details: { problem: 'part 1 of 2 was never received' },
    });
    // Too large: past the team's limit, by its size or by a part's place.
    const large = await asMachine('/bundle', 'POST', { ...truncated, size: 256 * 1024 * 1024 + 1 });
    expect(large.status).toBe(413);
    expect(large.json.error).toMatchObject({ code: 'bundle.too_large', details: { max_bytes: 256 * 1024 * 1024 } });
    const secondRun = { run_id: second.run_id, fencing: second.fencing };
    const farPart = await asMachine('/bundle/parts/256', 'PUT', { ...secondRun, data: part(Buffer.from('x')) });
    expect(farPart.status).toBe(413);
    // Out of form: refused before anything is kept.
    for (const bad of [
      { ...truncated, sha256: 'not hex' },
      { ...truncated, parts: 0 },
      { ...truncated, extra: true },
    ])
      expect((await asMachine('/bundle', 'POST', bad)).status).toBe(400);
    expect((await asMachine('/bundle/parts/01', 'PUT', { ...secondRun, data: 'AA==' })).status).toBe(400);
    expect((await asMachine('/bundle/parts/0', 'PUT', { ...secondRun, data: 'not base64!' })).status).toBe(400);

    // The newest version is still the first, whole: its parts read back as they were sent.
    const read = await asMachine(`/bundle/parts/1?run_id=${second.run_id}`, 'GET');
    expect(read.status).toBe(200);
    expect(Buffer.from(read.json.data, 'base64').toString()).toBe('part two');
    // Nobody without the lease reads a part or the key.
    expect((await asMachine(`/bundle/parts/0?run_id=${first.run_id}`, 'GET')).json.error.code).toBe('run.lease_lost');
    expect((await asMachine('/bundle/open', 'POST', { run_id: first.run_id })).status).toBe(409);
    expect((await asMachine('/lease/release', 'POST', { run_id: second.run_id })).status).toBe(200);
  });

  it("starts a team profile that has a proxy: the team opens its password for the lease holder's browser alone", async () => {
    const proxy = await httpProxy({ username: 'team-user', password: 'team-proxy-pw' });
    try {
      const created = await call(a, '/api/v1/profiles', {
        method: 'POST',
        body: {
          name: 'proxied team profile',
          proxy: {
            type: 'http',
            host: '127.0.0.1',
            port: proxy.port,
            username: 'team-user',
            password: 'team-proxy-pw',
          },
        },
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const id = created.json.id as string;
      const onA = await start(a, id);
      expect(onA.status, JSON.stringify(onA.json)).toBe(200);
      expect(await onPage(onA.json.ws_endpoint, (page) => page.title())).toBe('travelling page');
      expect(proxy.carried).toContain(new URL(siteUrl).host);
      const [line] = browsersUnder(join(a.dataRoot, 'browsers', id)).map((browser) => browser.command);
      expect(line).toMatch(/--proxy-server=http:\/\/127\.0\.0\.1:\d+/);
      expect(line).not.toContain('team-proxy-pw');
      expect((await call(a, `/api/v1/profiles/${id}/stop`, { method: 'POST' })).status).toBe(200);
    } finally {
      await proxy.server.close(true);
    }
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
