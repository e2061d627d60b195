/**
 * A team profile's folder as it travels (src/host/node/browsers/profile-bundle.ts), against a team
 * that keeps parts in memory: what is packed and what is not, and that a version altered, cut
 * short, reordered or of another fencing number is refused with the machine's folder left as it was.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packBundle, unpackBundle } from '../../src/host/node/browsers/profile-bundle';
import type { HostPort } from '../../src/host/port';
import { fromBase64, toBase64 } from '../../src/shared/base64';
import type { Bundle } from '../../src/shared/schemas/bundle';
import { utf8Bytes, utf8Text } from '../../src/shared/unicode';

const PROFILE = 'profile-1';
const RUN = '00000000-0000-4000-8000-000000000001';

/** A team's bundle routes over a map of parts: what the host's team link would reach. */
function memoryTeam() {
  const parts = new Map<number, Uint8Array>();
  const forward: HostPort['team']['forward'] = async (request) => {
    const part = Number(/\/parts\/(\d+)/.exec(request.target)?.[1]);
    const answer = (status: number, json: unknown) => ({
      reachable: true as const,
      status,
      headers: {},
      body: utf8Bytes(JSON.stringify(json)),
    });
    if (request.method === 'PUT') {
      parts.set(part, fromBase64(JSON.parse(utf8Text(request.body!)).data));
      return answer(200, { ok: true });
    }
    const data = parts.get(part);
    return data ? answer(200, { data: toBase64(data) }) : answer(404, { error: { code: 'resource.not_found' } });
  };
  return { parts, forward };
}

/** A profile folder as Chromium leaves it: data that travels, caches and this machine's lock links that do not. */
function profileFolder(): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'lpa-bundle-')), 'profile');
  mkdirSync(join(folder, 'Default', 'Local Storage', 'leveldb'), { recursive: true });
  mkdirSync(join(folder, 'Default', 'Cache', 'Cache_Data'), { recursive: true });
  mkdirSync(join(folder, 'Default', 'Code Cache', 'js'), { recursive: true });
  writeFileSync(join(folder, 'Default', 'Cookies'), 'cookie rows');
  writeFileSync(join(folder, 'Default', 'Secure Preferences'), '{"protection":{}}');
  writeFileSync(join(folder, 'Default', 'Local Storage', 'leveldb', '000003.log'), 'travel=from-a');
  writeFileSync(join(folder, 'Local State'), '{}');
  // Incompressible and larger than a part: the bundle has several.
  writeFileSync(join(folder, 'Default', 'IndexedDB.blob'), randomBytes(2_500_000));
  writeFileSync(join(folder, 'Default', 'Cache', 'Cache_Data', 'data_0'), 'cached');
  writeFileSync(join(folder, 'Default', 'Code Cache', 'js', 'index'), 'compiled');
  symlinkSync('machine-a-1234', join(folder, 'SingletonLock'));
  writeFileSync(join(folder, 'DevToolsActivePort'), '9222\n/devtools/browser/x');
  return folder;
}

async function packed(folder = profileFolder()) {
  const team = memoryTeam();
  const key = randomBytes(32);
  const sums = await packBundle(
    folder,
    PROFILE,
    { run_id: RUN, fencing: 7, key, max_bytes: 64 * 1024 * 1024 },
    team.forward,
  );
  if (!sums.ok) throw new Error(sums.error);
  const bundle: Bundle = {
    profile_id: PROFILE,
    run_id: RUN,
    machine_label: 'a',
    fencing: 7,
    parts: sums.parts,
    size: sums.size,
    sha256: sums.sha256,
    uploaded_at: 0,
  };
  return { folder, team, key, bundle };
}

/** Another machine's folder of the profile, older: what a refused version must leave as it is. */
function olderFolder(): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'lpa-bundle-b-')), 'profile');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'Local State'), 'older');
  return folder;
}

describe("a team profile's folder, packed and unpacked", () => {
  it('carries what the browser cannot make again, and no cache, lock link or DevTools port', async () => {
    const { folder, team, key, bundle } = await packed();
    expect(bundle.parts).toBeGreaterThanOrEqual(3);
    const into = olderFolder();
    expect(await unpackBundle(into, PROFILE, { run_id: RUN, key, bundle }, team.forward)).toEqual({
      ok: true,
      fetched: true,
    });
    for (const file of [
      'Default/Cookies',
      'Default/Secure Preferences',
      'Default/Local Storage/leveldb/000003.log',
      'Local State',
      'Default/IndexedDB.blob',
    ])
      expect(readFileSync(join(into, file)).equals(readFileSync(join(folder, file))), file).toBe(true);
    for (const absent of ['Default/Cache', 'Default/Code Cache', 'SingletonLock', 'DevToolsActivePort'])
      expect(existsSync(join(into, absent)), absent).toBe(false);
    // The same version again: nothing fetched.
    team.parts.clear();
    expect(await unpackBundle(into, PROFILE, { run_id: RUN, key, bundle }, team.forward)).toEqual({
      ok: true,
      fetched: false,
    });
  });

  it('refuses a version altered, cut short, reordered, of another fencing number or key, and keeps the folder it had', async () => {
    const { team, key, bundle } = await packed();
    const original = new Map(team.parts);
    const cases: [string, () => void, Partial<Bundle>, Buffer?][] = [
      ['a byte altered', () => (team.parts.get(1)![100]! ^= 1), {}],
      ['the last part dropped', () => team.parts.delete(bundle.parts - 1), { parts: bundle.parts - 1 }],
      [
        'two parts swapped',
        () => {
          const [first, second] = [team.parts.get(0)!, team.parts.get(1)!];
          team.parts.set(0, second);
          team.parts.set(1, first);
        },
        {},
      ],
      ['another fencing number', () => {}, { fencing: 8 }],
      ['another key', () => {}, {}, randomBytes(32)],
      ['another hash', () => {}, { sha256: 'a'.repeat(64) }],
    ];
    for (const [what, tamper, changed, otherKey] of cases) {
      team.parts.clear();
      for (const [index, data] of original) team.parts.set(index, Uint8Array.from(data));
      tamper();
      const into = olderFolder();
      const result = await unpackBundle(
        into,
        PROFILE,
        { run_id: RUN, key: otherKey ?? key, bundle: { ...bundle, ...changed } },
        team.forward,
      );
      expect(result.ok, what).toBe(false);
      expect(readFileSync(join(into, 'Local State'), 'utf8'), what).toBe('older');
      expect(existsSync(`${into}.bundle`), what).toBe(false);
    }
  });

  it('stops at the team limit, sending nothing past it', async () => {
    const team = memoryTeam();
    const result = await packBundle(
      profileFolder(),
      PROFILE,
      { run_id: RUN, fencing: 1, key: randomBytes(32), max_bytes: 1024 * 1024 },
      team.forward,
    );
    expect(result).toMatchObject({ ok: false, code: 'bundle.too_large' });
    expect(team.parts.size).toBe(1);
  });
});
