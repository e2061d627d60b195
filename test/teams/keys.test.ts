import { beforeAll, describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/host/operations';
import { toBase64, toBase64Url } from '../../src/shared/base64';
import { parseWrapKey, unwrapKey } from '../../src/teams/key-wrap';
import { TEAM_TEST_WRAP_KEY } from './constants';
import { createTeam, inTeamObject, teamCall, teamPath, teamToken } from './support';

const KEY_NAMES: KeyName[] = ['vault', 'audit', 'audit-signing'];
const kek = parseWrapKey(TEAM_TEST_WRAP_KEY);
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
/** Every form a raw key could be written in: base64, base64url without padding, hex (either case). */
const forms = (key: Uint8Array) => [toBase64(key), toBase64Url(key), hex(key), hex(key).toUpperCase()];

/** Everything a team's object keeps: its key-value storage and every row of every SQL table, as text. */
async function objectContents(teamId: string) {
  return inTeamObject(teamId, (_instance, state) => {
    const kv = Object.fromEntries(state.storage.kv.list());
    const tables = state.storage.sql
      .exec<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
      )
      .toArray()
      .map((t) => t.name);
    // A blob is written out in each of the forms a key is searched in, so that raw bytes in a BLOB are found too.
    const cell = (value: unknown) => (value instanceof ArrayBuffer ? forms(new Uint8Array(value)).join(' ') : value);
    const rows = Object.fromEntries(
      tables.map((name) => [
        name,
        state.storage.sql
          .exec(`SELECT * FROM "${name}"`)
          .toArray()
          .map((row) => Object.values(row).map(cell)),
      ]),
    );
    return { kv, tables, text: JSON.stringify({ kv, rows }) };
  });
}

interface KeyedTeam {
  id: string;
  owner: string;
  created: string;
  /** The text of every API answer the test got from the team. */
  answers: string[];
}

const made: KeyedTeam[] = [];

/** A team whose three keys have all been used: a sealed password (vault), entries and anchors' MAC (audit), a checkpoint (signing). */
async function keyedTeam(id: string): Promise<KeyedTeam> {
  const { owner, answer: created } = await createTeam(id);
  const { token } = await teamToken(id, owner, [], true);
  const answers: string[] = [created];
  const get = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await teamCall(teamPath(id, path), { token, ...init });
    expect(res.status, `${path} ${res.text}`).toBeLessThan(300);
    answers.push(res.text);
    return res.json;
  };
  const profile = await get('/profiles', { method: 'POST', body: { name: 'keyed' } });
  const account = await get(`/profiles/${profile.id}/accounts`, {
    method: 'POST',
    body: { platform_url: 'https://shop.example', password: 'pw', totp_secret: 'JBSWY3DPEHPK3PXP' },
  });
  await get(`/profiles/${profile.id}/accounts/${account.id}/password`);
  await get(`/profiles/${profile.id}/accounts/${account.id}/totp`);
  await get('/automation/globals/SECRET', { method: 'PUT', body: { value: 'v', expected_revision: 0 } });
  await get('/automation/globals/SECRET');
  for (const path of [
    '/tokens',
    '/members',
    `/profiles/${profile.id}/accounts`,
    '/audit',
    '/audit/verify',
    '/audit/checkpoint',
    '/audit/public-key',
    '/audit/export?format=jsonl',
    '/audit/export?format=csv',
  ]) {
    await get(path);
  }
  return { id, owner, created, answers };
}

beforeAll(async () => {
  made.push(await keyedTeam('keys-a'), await keyedTeam('keys-b'));
});

describe("a team's keys", () => {
  it("are kept wrapped in its object's key-value storage: `v1.` strings that open with the key-encryption key as that team's", async () => {
    for (const team of made) {
      const { kv } = await objectContents(team.id);
      expect(Object.keys(kv).sort()).toEqual(['key:audit', 'key:audit-signing', 'key:vault', 'team']);
      for (const name of KEY_NAMES) {
        const wrapped = kv[`key:${name}`];
        expect(wrapped).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
        expect(unwrapKey(kek, { teamId: team.id, name }, wrapped as string)).toHaveLength(32);
      }
    }
  });

  it("appear in the clear nowhere: not in the object's storage, in any of its tables, or in any API answer", async () => {
    for (const team of made) {
      const { kv, tables, text } = await objectContents(team.id);
      // The store's own tables are there to be searched (a scan of nothing would prove nothing).
      expect(tables).toEqual(
        expect.arrayContaining(['audit_log', 'audit_anchor', 'profile_accounts', 'tokens', 'members', 'meta']),
      );
      for (const name of KEY_NAMES) {
        const key = unwrapKey(kek, { teamId: team.id, name }, kv[`key:${name}`] as string);
        for (const form of forms(key)) {
          expect(text, `${team.id} ${name} in storage`).not.toContain(form);
          for (const answer of team.answers) expect(answer, `${team.id} ${name} in an answer`).not.toContain(form);
        }
      }
    }
  });

  it("differ between teams, and a wrapped key of team A does not open as team B's", async () => {
    const [a, b] = await Promise.all(made.map((team) => objectContents(team.id)));
    for (const name of KEY_NAMES) {
      const keyA = unwrapKey(kek, { teamId: 'keys-a', name }, a!.kv[`key:${name}`] as string);
      const keyB = unwrapKey(kek, { teamId: 'keys-b', name }, b!.kv[`key:${name}`] as string);
      expect(hex(keyA)).not.toBe(hex(keyB));
      expect(() => unwrapKey(kek, { teamId: 'keys-b', name }, a!.kv[`key:${name}`] as string)).toThrow(
        /does not unwrap/,
      );
    }
    // Nor as another key of the same team.
    expect(() => unwrapKey(kek, { teamId: 'keys-a', name: 'audit' }, a!.kv['key:vault'] as string)).toThrow(
      /does not unwrap/,
    );
  });

  it("are not in the operator's creation answer, which says only which team was made for whom", () => {
    for (const team of made) {
      expect(Object.keys(JSON.parse(team.created)).sort()).toEqual(['created_at', 'owner', 'team_id']);
    }
  });
});
