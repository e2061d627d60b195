/**
 * `lpa team push` as people run it (docs/teams.md#from-one-machine-to-a-team): a solo `npm start`
 * with profiles, accounts with a password and a 2FA secret, a global at revision 3, flows and a
 * share, pushed into an empty team of one `npm run start:team`; then a second machine joined to the
 * team reads all of it and redeems the share, the team's chain names the solo store and its signed
 * checkpoint, a second push changes nothing, and the solo store keeps its data and its chain.
 */
import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonical } from '../../storage/audit/chain';
import { totpAt } from '../../src/shared/totp';
import { raw, startService, type RawResponse, type RunningService } from './service';
import { adminTeamToken, createTeam, startTeamService, teamOk, type RunningTeamService } from './team-service';

const START_MS = 120_000;
const TEAM = 'pushed-team';
const OWNER = 'owner@pushed.example';
const PASSWORD = 'solo-password-5d1c';
const PROXY = { type: 'socks5', host: 'proxy.example', port: 1080, username: 'proxy-user' } as const;
const PROXY_PASSWORD = 'proxy-pw-pushed';
const TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const BIG = '"'.repeat(1_048_576);

const work = mkdtempSync(join(tmpdir(), 'lpa-team-push-'));
let team: RunningTeamService;
let teamUrl: string;
let ownerToken: string;
let pushTokenFile: string;
let solo: RunningService;
let other: RunningService;

interface Seeded {
  store_id: string;
  profiles: { id: string; name: string }[];
  account: { id: string; profile_id: string };
  flows: { base: string; child: string };
  share: { id: string; code: string };
}
let seeded: Seeded;

async function call(
  service: RunningService,
  path: string,
  { method = 'GET', body }: { method?: string; body?: unknown } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${service.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return raw(service.port, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function ok(service: RunningService, path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const answer = await call(service, path, init);
  expect(answer.status, `${path}: ${JSON.stringify(answer.json)}`).toBeLessThan(300);
  return answer.json;
}

/** `lpa …` against the solo service, on its data root. */
function lpa(
  args: string[],
  env: Record<string, string> = {},
  stdin = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(process.cwd(), 'bin/lpa.mjs'), ...args],
      {
        env: {
          ...process.env,
          LPA_DATA_ROOT: solo.dataRoot,
          LPA_URL: `http://127.0.0.1:${solo.port}`,
          LPA_TOKEN: solo.token,
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

const teamAudit = async (query = '') =>
  (await teamOk<{ items: any[] }>(team, `/teams/${TEAM}/api/v1/audit?limit=1000${query}`, { token: ownerToken })).items;

async function seed(service: RunningService): Promise<Seeded> {
  const store_id = (await ok(service, '/api/v1/system/status')).store_id as string;
  const profiles = [];
  profiles.push(
    await ok(service, '/api/v1/profiles', { method: 'POST', body: { name: 'first solo profile', tags: ['solo'] } }),
  );
  profiles.push(
    await ok(service, '/api/v1/profiles', {
      method: 'POST',
      body: { name: 'second solo profile', tags: ['solo'], proxy: { ...PROXY, password: PROXY_PASSWORD } },
    }),
  );
  const account = await ok(service, `/api/v1/profiles/${profiles[0].id}/accounts`, {
    method: 'POST',
    body: { platform_url: 'https://shop.example', username: 'me', password: PASSWORD, totp_secret: TOTP },
  });
  for (let revision = 0; revision < 3; revision++) {
    await ok(service, '/api/v1/automation/globals/COUNTER', {
      method: 'PUT',
      body: { value: `value ${revision + 1}`, expected_revision: revision },
    });
  }
  // A global of the largest size goes alone in a page, and its import body is over the default 1 MiB.
  await ok(service, '/api/v1/automation/globals/BIG', { method: 'PUT', body: { value: BIG, expected_revision: 0 } });
  await ok(service, '/api/v1/automation/globals/GONE', {
    method: 'PUT',
    body: { value: 'deleted before the push', expected_revision: 0 },
  });
  await ok(service, '/api/v1/automation/globals/GONE?expected_revision=1', { method: 'DELETE' });
  const base = await ok(service, '/api/v1/automation/flows', {
    method: 'POST',
    body: {
      name: 'base flow',
      steps: [{ type: 'open_url', url: 'https://shop.example' }],
      values: [{ name: 'key', value: 'protected value', protected: true }],
    },
  });
  const child = await ok(service, '/api/v1/automation/flows', {
    method: 'POST',
    body: { name: 'child flow', dependencies: [base.id], steps: [{ type: 'click', selector: '#go' }] },
  });
  const share = await ok(service, '/api/v1/automation/shares', {
    method: 'POST',
    body: { ids: [base.id, child.id], name: 'both flows', expires_in_minutes: 600, max_uses: 5, include_secrets: true },
  });
  return {
    store_id,
    profiles,
    account,
    flows: { base: base.id, child: child.id },
    share: { id: share.id, code: share.code },
  };
}

const counts = (created: number, unchanged: number, conflict = 0) => ({ created, unchanged, conflict });

beforeAll(async () => {
  team = await startTeamService(join(work, 'team'));
  teamUrl = `http://127.0.0.1:${team.port}/teams/${TEAM}`;
  expect((await createTeam(team, TEAM, OWNER)).status).toBe(201);
  ownerToken = (await adminTeamToken(team, TEAM, OWNER, 'owner script')).token;
  pushTokenFile = join(work, 'push.token');
  writeFileSync(pushTokenFile, `${(await adminTeamToken(team, TEAM, OWNER, 'solo machine')).token}\n`, { mode: 0o600 });
  const otherTokenFile = join(work, 'other.token');
  writeFileSync(otherTokenFile, `${(await adminTeamToken(team, TEAM, OWNER, 'other machine')).token}\n`, {
    mode: 0o600,
  });
  solo = await startService('workerd', join(work, 'solo'));
  other = await startService('workerd', join(work, 'other'), {
    LPA_TEAM_URL: teamUrl,
    LPA_TEAM_TOKEN_FILE: otherTokenFile,
  });
  seeded = await seed(solo);
}, 3 * START_MS);

afterAll(async () => {
  await Promise.all([solo?.stop(), other?.stop(), team?.stop()]);
}, START_MS);

describe('lpa team push', () => {
  it('refuses without a team link, before it reads anything', async () => {
    const answer = await lpa(['team', 'push', '--json']);
    expect(answer.code).toBe(1);
    expect(JSON.parse(answer.stderr).error.code).toBe('cli.team_not_joined');
  });

  it('refuses a team link that is set but is not one, naming the setting', async () => {
    const answer = await lpa(['team', 'push', '--json'], { LPA_TEAM_URL: teamUrl });
    expect(answer.code).toBe(1);
    expect(JSON.parse(answer.stderr).error).toMatchObject({
      code: 'cli.team_link_invalid',
      message: expect.stringMatching(/LPA_TEAM_URL needs LPA_TEAM_TOKEN_FILE/),
    });
  });

  it('copies the solo store into the empty team (linked by `lpa team join`, the service not restarted)', async () => {
    const joined = await lpa(['team', 'join', teamUrl, '--token-file', pushTokenFile]);
    expect(joined.code, joined.stderr).toBe(0);
    const pushed = await lpa(['team', 'push', '--json']);
    expect(pushed.code, pushed.stderr).toBe(0);
    const report = JSON.parse(pushed.stdout);
    expect(report).toMatchObject({ team: teamUrl, store_id: seeded.store_id, conflicts: [] });
    expect(report.counts).toEqual({
      profiles: counts(2, 0),
      accounts: counts(1, 0),
      globals: counts(2, 0),
      flows: counts(2, 0),
      shares: counts(1, 0),
    });
  });

  it('lets a machine joined to the team read all of it: profiles, the account and its secrets, the global at its revision, the flows', async () => {
    const profiles = (await ok(other, '/api/v1/profiles')).items;
    expect(profiles.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual(
      seeded.profiles.map((p) => [p.id, p.name]),
    );
    // The proxy came too, its password sealed again by the team: it opens for a run that holds the lease.
    expect(profiles[1].proxy).toEqual({ ...PROXY, password_set: true });
    const run_id = crypto.randomUUID();
    const leased = `/teams/${TEAM}/api/v1/runs/${profiles[1].id}`;
    const asOwner = (path: string, body: unknown) =>
      teamOk(team, `${leased}${path}`, { method: 'POST', token: ownerToken, body }, 200);
    await asOwner('/lease', { run_id, machine_label: 'push test' });
    expect((await asOwner('/bundle/open', { run_id })).proxy).toEqual({ ...PROXY, password: PROXY_PASSWORD });
    await asOwner('/lease/release', { run_id });
    const { id, profile_id } = seeded.account;
    expect((await ok(other, `/api/v1/profiles/${profile_id}/accounts/${id}/password`)).password).toBe(PASSWORD);
    const [soloCode, teamCode] = [
      await ok(solo, `/api/v1/profiles/${profile_id}/accounts/${id}/totp`),
      await ok(other, `/api/v1/profiles/${profile_id}/accounts/${id}/totp`),
    ];
    expect([totpAt(TOTP, Date.now()).code, totpAt(TOTP, Date.now() - 30_000).code]).toContain(teamCode.code);
    if (soloCode.remaining_s > 2) expect(teamCode.code).toBe(soloCode.code);
    expect(await ok(other, '/api/v1/automation/globals/COUNTER')).toEqual({ value: 'value 3', revision: 3 });
    expect(await ok(other, '/api/v1/automation/globals/BIG')).toEqual({ value: BIG, revision: 1 });
    expect((await call(other, '/api/v1/automation/globals/GONE')).status).toBe(404);
    const flows = (await ok(other, '/api/v1/automation/flows')).items;
    expect(flows.map((f: { id: string }) => f.id)).toEqual([seeded.flows.base, seeded.flows.child]);
    expect((await ok(other, `/api/v1/automation/flows/${seeded.flows.child}`)).dependencies).toEqual([
      seeded.flows.base,
    ]);
  });

  it("redeems the solo store's share code on the other machine, protected value and all", async () => {
    const redeemed = await ok(other, '/api/v1/automation/shares/redeem', {
      method: 'POST',
      body: { code: seeded.share.code },
    });
    expect(redeemed.items.map((item: { name: string }) => item.name)).toEqual(['base flow', 'child flow']);
    expect(redeemed.items[0].protected_values).toBe(1);
    const imported = await ok(other, '/api/v1/automation/shares/import', {
      method: 'POST',
      body: { ticket: redeemed.ticket, ids: [seeded.flows.base, seeded.flows.child] },
    });
    expect(imported.items).toHaveLength(2);
  });

  it("records each created item in the team's chain with the solo store id and its signed checkpoint, and the chain verifies", async () => {
    const entries = (await teamAudit('&action=team.import')).reverse();
    expect(entries.map((entry) => entry.entity_type)).toEqual([
      'profile',
      'profile',
      'profile_account',
      'global',
      'global',
      'flow',
      'flow',
      'share',
    ]);
    const source = entries[0].details.pushed_from;
    for (const entry of entries) {
      expect(entry).toMatchObject({
        result: 'ok',
        actor_type: 'admin',
        actor_label: 'solo machine',
        details: { pushed_from: source },
      });
    }
    expect(source.store_id).toBe(seeded.store_id);
    const key = await ok(solo, '/api/v1/audit/public-key');
    expect(source.key_id).toBe(key.key_id);
    const signed = canonical({ hash: source.hash, seq: source.seq, store_id: source.store_id, ts: source.ts });
    expect(
      verify(null, Buffer.from(signed), createPublicKey(key.public_key_pem), Buffer.from(source.signature, 'base64')),
    ).toBe(true);
    // The checkpoint's seq is the solo chain's entry of the push's first page.
    const soloEntry = (await ok(solo, `/api/v1/audit?action=team.export&limit=1000`)).items.find(
      (entry: { seq: number }) => entry.seq === source.seq,
    );
    expect(soloEntry).toMatchObject({ action: 'team.export', details: { kind: 'profiles', offset: 0, items: 2 } });
    expect((await teamOk(team, `/teams/${TEAM}/api/v1/audit/verify`, { token: ownerToken })).ok).toBe(true);
  });

  it("changes nothing when run again (linked by LPA_TEAM_URL this time): all unchanged, no entry in the team's chain", async () => {
    const before = (await teamAudit())[0].seq;
    const again = await lpa(['team', 'push', '--json'], { LPA_TEAM_URL: teamUrl, LPA_TEAM_TOKEN_FILE: pushTokenFile });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).counts).toEqual({
      profiles: counts(0, 2),
      accounts: counts(0, 1),
      globals: counts(0, 2),
      flows: counts(0, 2),
      shares: counts(0, 1),
    });
    expect((await teamAudit())[0].seq).toBe(before);
  });

  it("takes an admin team token for the push alone (a file, or standard input) when the link's team token is narrower", async () => {
    const narrow = await teamOk<{ token: string }>(team, `/teams/${TEAM}/api/v1/tokens`, {
      method: 'POST',
      token: ownerToken,
      body: { name: 'narrow machine', scopes: ['profiles:read'] },
    });
    const narrowFile = join(work, 'narrow.token');
    writeFileSync(narrowFile, `${narrow.token}\n`, { mode: 0o600 });
    const link = { LPA_TEAM_URL: teamUrl, LPA_TEAM_TOKEN_FILE: narrowFile };

    const refused = await lpa(['team', 'push', '--json'], link);
    expect(refused.code).toBe(6);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      code: 'auth.admin_required',
      message: expect.stringContaining('--admin-token-file'),
    });

    const withFile = await lpa(['team', 'push', '--json', '--admin-token-file', pushTokenFile], link);
    expect(withFile.code, withFile.stderr).toBe(0);
    expect(JSON.parse(withFile.stdout).counts.profiles).toEqual(counts(0, 2));

    const admin = readFileSync(pushTokenFile, 'utf8');
    const fromStdin = await lpa(['team', 'push', '--json', '--admin-token-file', '-'], link, admin);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout).counts.globals).toEqual(counts(0, 2));
    const empty = await lpa(['team', 'push', '--json', '--admin-token-file', '-'], link, '');
    expect(JSON.parse(empty.stderr).error.code).toBe('cli.value_missing');
  });

  it('reports a conflict and exits 8 when the solo store changed an item since; the team keeps its own', async () => {
    const [first] = seeded.profiles;
    await ok(solo, `/api/v1/profiles/${first!.id}`, { method: 'PATCH', body: { name: 'renamed on the solo machine' } });
    const pushed = await lpa(['team', 'push']);
    expect(pushed.code).toBe(8);
    expect(pushed.stdout).toMatch(/profiles\s+0\s+1\s+1/);
    expect(pushed.stdout).toContain(first!.id);
    expect((await ok(other, `/api/v1/profiles/${first!.id}`)).name).toBe('first solo profile');
  });

  it('leaves the solo store its data and its own chain, which verifies', async () => {
    expect((await ok(solo, '/api/v1/profiles')).total).toBe(2);
    expect((await ok(solo, '/api/v1/automation/globals/COUNTER')).revision).toBe(3);
    expect((await ok(solo, '/api/v1/audit/verify')).ok).toBe(true);
    const exports = (await ok(solo, '/api/v1/audit?action=team.export&limit=1000')).items;
    expect(
      exports.every(
        (entry: { result: string; actor_type: string }) => entry.result === 'ok' && entry.actor_type === 'admin',
      ),
    ).toBe(true);
  });

  it('has no import route on a machine: POST /api/v1/import is 404 route.not_found locally', async () => {
    const answer = await call(solo, '/api/v1/import', { method: 'POST', body: {} });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('route.not_found');
  });
});
