/**
 * The team's side of `lpa team push` (POST /teams/{id}/api/v1/import; docs/teams.md#from-one-machine-to-a-team):
 * validation, admin only, the refusal of a team that holds other data, created / unchanged / conflict,
 * the audit entries that name the source store and its checkpoint, and secrets sealed in the object.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '../../src/shared/totp';
import { createTeam, inTeamObject, teamCall, teamPath, teamToken } from './support';

const TEAM = 'push-target';
const SOURCE = {
  store_id: '5f0c3c53-8d2b-4e7c-9d51-0c1d5a8e2f11',
  seq: 42,
  hash: 'a'.repeat(64),
  ts: 1_700_000_000_000,
  key_id: 'b'.repeat(64),
  signature: 'c2lnbmF0dXJl',
};
const PASSWORD = 'pushed-password-7f3a91';
const TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const GLOBAL_VALUE = 'pushed-global-value-4c2e';
const PROTECTED = 'pushed-protected-value-9b1d';

const profile = {
  kind: 'profiles',
  id: '11111111-1111-4111-8111-111111111111',
  name: 'pushed',
  group: 'g',
  tags: ['a', 'b'],
  pinned: true,
  notes: null,
  created_at: 1000,
  updated_at: 2000,
};
const account = {
  kind: 'accounts',
  id: '22222222-2222-4222-8222-222222222222',
  profile_id: profile.id,
  platform_url: 'https://shop.example',
  username: 'me',
  password: PASSWORD,
  totp_secret: TOTP,
  notes: null,
  sort_order: 0,
  created_at: 1100,
  updated_at: 2100,
};
const global = { kind: 'globals', id: 'PUSHED', revision: 3, value: GLOBAL_VALUE, updated_at: 3000 };
const base = {
  name: 'base',
  group: null,
  description: null,
  is_template: false,
  dependencies: [],
  steps: [{ type: 'open_url', url: 'https://example.com' }],
  created_at: 4000,
  updated_at: 4000,
};
const flowBase = {
  kind: 'flows',
  id: '33333333-3333-4333-8333-333333333333',
  ...base,
  values: [{ name: 'secret', value: PROTECTED, protected: true }],
};
const flowChild = {
  kind: 'flows',
  id: '44444444-4444-4444-8444-444444444444',
  ...base,
  name: 'child',
  dependencies: [flowBase.id],
  values: [],
};
const ITEMS = [profile, account, global, flowBase, flowChild];

let admin: string;
let scoped: string;

const importing = (body: unknown, token = admin) =>
  teamCall(teamPath(TEAM, '/import'), { method: 'POST', token, body });
const api = async (path: string) => {
  const res = await teamCall(teamPath(TEAM, path), { token: admin });
  expect(res.status, `${path} ${res.text}`).toBe(200);
  return res.json;
};
const newestSeq = async () => (await api('/audit?limit=1')).items[0].seq as number;

beforeAll(async () => {
  const { owner } = await createTeam(TEAM);
  admin = (await teamToken(TEAM, owner, [], true)).token;
  scoped = (
    await teamToken(TEAM, owner, [
      'profiles:read',
      'profiles:write',
      'secrets:read',
      'secrets:totp',
      'rpa:write',
      'runtime:control',
      'audit:read',
      'settings:write',
    ])
  ).token;
});

describe('POST /api/v1/import on a team', () => {
  it('refuses a bad body with 400 request.invalid and writes nothing', async () => {
    const before = await newestSeq();
    for (const body of [
      { items: ITEMS },
      { source: SOURCE, items: [] },
      { source: SOURCE, items: [{ ...profile, kind: 'tokens' }] },
      { source: SOURCE, items: [{ ...account, totp_secret: 'not base32!' }] },
      { source: SOURCE, items: [{ ...global, revision: 0 }] },
      { source: SOURCE, items: [{ ...profile, extra: 1 }] },
      { source: { ...SOURCE, store_id: '' }, items: [profile] },
    ]) {
      const res = await importing(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('request.invalid');
    }
    expect((await api('/profiles')).items).toHaveLength(0);
    // Each refusal is audited as a failed write (as every audited route's is), and nothing else is written.
    const after = (await api('/audit?limit=1000')).items.filter((entry: { seq: number }) => entry.seq > before);
    expect(
      after.map((entry: { action: string; result: string; error_code: string }) => [
        entry.action,
        entry.result,
        entry.error_code,
      ]),
    ).toEqual(Array(7).fill(['team.import', 'error', 'request.invalid']));
  });

  it('is for an admin only: a team token with every scope gets 403 auth.admin_required', async () => {
    const res = await importing({ source: SOURCE, items: [profile] }, scoped);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('auth.admin_required');
    expect((await api('/profiles')).items).toHaveLength(0);
  });

  it('creates every item under its own id, revision and times, one audit entry each naming the source store and checkpoint', async () => {
    const before = await newestSeq();
    const res = await importing({ source: SOURCE, items: ITEMS });
    expect(res.status, res.text).toBe(200);
    expect(res.json.items).toEqual(
      ITEMS.map((item) => ({ kind: item.kind, id: item.id, result: 'created', reason: null })),
    );

    const read = await api(`/profiles/${profile.id}`);
    expect(read).toMatchObject({
      id: profile.id,
      name: 'pushed',
      group: 'g',
      tags: ['a', 'b'],
      pinned: true,
      created_at: 1000,
      updated_at: 2000,
    });
    expect((await api(`/profiles/${profile.id}/accounts/${account.id}/password`)).password).toBe(PASSWORD);
    const code = await api(`/profiles/${profile.id}/accounts/${account.id}/totp`);
    expect([totpAt(TOTP, Date.now()).code, totpAt(TOTP, Date.now() - 30_000).code]).toContain(code.code);
    expect(await api('/automation/globals/PUSHED')).toEqual({ value: GLOBAL_VALUE, revision: 3 });
    expect((await api(`/automation/flows/${flowChild.id}`)).dependencies).toEqual([flowBase.id]);
    expect((await api(`/automation/flows/${flowBase.id}`)).values).toEqual([
      { name: 'secret', value: null, protected: true, value_set: true },
    ]);
    // The revision is the solo store's: a writer holding an older one is refused with it.
    const stale = await teamCall(teamPath(TEAM, '/automation/globals/PUSHED'), {
      method: 'PUT',
      token: admin,
      body: { value: 'next', expected_revision: 2 },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error.details).toEqual({ current_revision: 3 });

    const entries = (await api('/audit?action=team.import&limit=1000')).items
      .filter((entry: { seq: number }) => entry.seq > before)
      .reverse();
    expect(
      entries.map((entry: { entity_type: string; entity_id: string }) => [entry.entity_type, entry.entity_id]),
    ).toEqual([
      ['profile', profile.id],
      ['profile_account', account.id],
      ['global', 'PUSHED'],
      ['flow', flowBase.id],
      ['flow', flowChild.id],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ result: 'ok', actor_type: 'admin', details: { pushed_from: SOURCE } });
      expect(JSON.stringify(entry)).not.toContain(PASSWORD);
    }
    expect((await api('/audit/verify')).ok).toBe(true);
  });

  it('keeps the secrets sealed: no plaintext password, 2FA secret, global or protected value anywhere in the object', async () => {
    const text = await inTeamObject(TEAM, (_instance, state) => {
      const tables = state.storage.sql
        .exec<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'`,
        )
        .toArray();
      return JSON.stringify([
        Object.fromEntries(state.storage.kv.list()),
        tables.map((t) => state.storage.sql.exec(`SELECT * FROM "${t.name}"`).toArray()),
      ]);
    });
    expect(text).toContain('profile_account'); // the tables were read
    for (const secret of [PASSWORD, TOTP, GLOBAL_VALUE, PROTECTED]) expect(text).not.toContain(secret);
  });

  it('takes the same page again as unchanged and writes nothing: no data, no audit entry', async () => {
    const before = await newestSeq();
    const res = await importing({ source: { ...SOURCE, seq: 50, hash: 'd'.repeat(64) }, items: ITEMS });
    expect(res.status).toBe(200);
    expect(res.json.items.map((item: { result: string }) => item.result)).toEqual(ITEMS.map(() => 'unchanged'));
    expect(await newestSeq()).toBe(before);
  });

  it('reports an item the team holds otherwise as a conflict and never overwrites it; an item it cannot take is a conflict too', async () => {
    const before = await newestSeq();
    const orphan = {
      ...account,
      id: '55555555-5555-4555-8555-555555555555',
      profile_id: '66666666-6666-4666-8666-666666666666',
    };
    const res = await importing({
      source: SOURCE,
      items: [{ ...profile, name: 'renamed in the solo store' }, { ...global, revision: 4, value: 'newer' }, orphan],
    });
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([
      { kind: 'profiles', id: profile.id, result: 'conflict', reason: expect.stringContaining('other content') },
      { kind: 'globals', id: 'PUSHED', result: 'conflict', reason: expect.stringContaining('other content') },
      { kind: 'accounts', id: orphan.id, result: 'conflict', reason: expect.stringContaining(orphan.profile_id) },
    ]);
    expect(await newestSeq()).toBe(before);
    expect((await api(`/profiles/${profile.id}`)).name).toBe('pushed');
    expect((await api('/automation/globals/PUSHED')).value).toBe(GLOBAL_VALUE);
  });

  it('refuses 409 team.not_empty a push from another store, and a first push into a team that holds data of its own', async () => {
    const other = await importing({
      source: { ...SOURCE, store_id: 'another-store' },
      items: [{ ...profile, id: '77777777-7777-4777-8777-777777777777' }],
    });
    expect(other.status).toBe(409);
    expect(other.json.error).toMatchObject({
      code: 'team.not_empty',
      details: { store_id: 'another-store', pushed_from: SOURCE.store_id },
    });

    const { owner } = await createTeam('push-busy');
    const token = (await teamToken('push-busy', owner, [], true)).token;
    expect(
      (
        await teamCall(teamPath('push-busy', '/automation/globals/MINE'), {
          method: 'PUT',
          token,
          body: { value: 'x', expected_revision: 0 },
        })
      ).status,
    ).toBe(200);
    const busy = await teamCall(teamPath('push-busy', '/import'), {
      method: 'POST',
      token,
      body: { source: SOURCE, items: [profile] },
    });
    expect(busy.status).toBe(409);
    expect(busy.json.error).toMatchObject({
      code: 'team.not_empty',
      details: { store_id: SOURCE.store_id, pushed_from: null },
    });
    expect((await teamCall(teamPath('push-busy', '/profiles'), { token })).json.items).toHaveLength(0);
  });

  it("is the team's only: a machine's export route answers 404 route.not_found in a team", async () => {
    const res = await teamCall(teamPath(TEAM, '/team/export?kind=profiles'), { token: admin });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('route.not_found');
  });
});
