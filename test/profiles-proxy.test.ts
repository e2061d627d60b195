import { describe, expect, it } from 'vitest';
import { call } from './support/api';
import { auditRows, createProfile } from './support/profiles';
import { inStore, sql } from './support/store';

const PASSWORD = 'proxy-pw-7f3a91';
const proxy = { type: 'socks5', host: 'proxy.example', port: 1080, username: 'alice', password: PASSWORD };

const storedRow = async (id: string) =>
  (
    await sql<{ proxy: string | null; proxy_password: string | null }>(
      'SELECT proxy, proxy_password FROM profiles WHERE id = ?',
      id,
    )
  )[0]!;
const opened = (id: string) => inStore(({ store }) => store.profiles.proxy(id));
const proxyEntries = async (id: string) =>
  (await auditRows('profiles.proxy_write')).filter((row) => row.entity_id === id);

describe("a profile's proxy", () => {
  it('is sealed at rest, shown without its password, and opened only for the host', async () => {
    const p = await createProfile({ name: 'proxy-sealed', proxy });
    const shown = { type: 'socks5', host: 'proxy.example', port: 1080, username: 'alice', password_set: true };
    expect(p.proxy).toEqual(shown);
    expect((await call(`/api/v1/profiles/${p.id}`)).json.proxy).toEqual(shown);
    const listed = (await call('/api/v1/profiles?q=proxy-sealed')).json.items;
    expect(listed.map((item: { proxy: unknown }) => item.proxy)).toEqual([shown]);
    for (const answer of [p, listed]) expect(JSON.stringify(answer)).not.toContain(PASSWORD);

    const row = await storedRow(p.id);
    expect(row.proxy_password).toMatch(/^v1\./);
    expect(`${row.proxy}${row.proxy_password}`).not.toContain(PASSWORD);
    expect(await opened(p.id)).toEqual({ ...shown, password_set: undefined, password: PASSWORD });
  });

  it('keeps its password when a change leaves it out, and null removes the password or the whole proxy', async () => {
    const p = await createProfile({ name: 'proxy-change', proxy });
    const patch = (body: unknown) => call(`/api/v1/profiles/${p.id}`, { method: 'PATCH', body });

    const moved = await patch({ proxy: { ...proxy, password: undefined, host: '10.0.0.2', port: 3128 } });
    expect(moved.status).toBe(200);
    expect(moved.json.proxy).toMatchObject({ host: '10.0.0.2', port: 3128, password_set: true });
    expect((await opened(p.id))?.password).toBe(PASSWORD);

    // A change of other fields leaves the proxy as it is.
    expect((await patch({ notes: 'n' })).json.proxy).toMatchObject({ host: '10.0.0.2', password_set: true });

    const noPassword = await patch({ proxy: { type: 'http', host: 'h', port: 8080, password: null } });
    expect(noPassword.json.proxy).toEqual({ type: 'http', host: 'h', port: 8080, username: null, password_set: false });
    expect((await storedRow(p.id)).proxy_password).toBeNull();

    const removed = await patch({ proxy: null });
    expect(removed.json.proxy).toBeNull();
    expect(await storedRow(p.id)).toEqual({ proxy: null, proxy_password: null });
    expect(await opened(p.id)).toBeNull();
  });

  it('is audited in the category proxy, never with its password', async () => {
    const p = await createProfile({ name: 'proxy-audit', proxy });
    await call(`/api/v1/profiles/${p.id}`, { method: 'PATCH', body: { proxy: null } });
    const entries = await proxyEntries(p.id);
    expect(entries.map((entry) => [entry.category, entry.result, JSON.parse(entry.details as string)])).toEqual([
      ['proxy', 'ok', { proxy: 'socks5://proxy.example:1080', username: 'alice', password_set: true }],
      ['proxy', 'ok', { proxy: null, removed: true }],
    ]);
    const all = await sql<{ details: string | null }>('SELECT details FROM audit_log');
    expect(all.some((entry) => entry.details?.includes(PASSWORD))).toBe(false);
    // A change that does not touch the proxy has no proxy entry.
    await call(`/api/v1/profiles/${p.id}`, { method: 'PATCH', body: { pinned: true } });
    expect(await proxyEntries(p.id)).toHaveLength(2);
  });

  // The host's pattern once let a label split anywhere: 30 letters and a `!` took seconds, 40 took
  // hours, on the Durable Object's one thread. The bound is a thousand times what the answer takes.
  it('takes the longest host names and refuses a near miss at once', async () => {
    const p = await createProfile({ name: 'proxy-host-names' });
    const label = 'a'.repeat(63);
    const longest = `${label}.${label}.${label}.${'a'.repeat(61)}`;
    const set = (host: string) =>
      call(`/api/v1/profiles/${p.id}`, { method: 'PATCH', body: { proxy: { ...proxy, host } } });
    expect((await set(longest)).json.proxy.host).toBe(longest);
    expect((await set(`${label}.example.`)).status).toBe(200);
    for (const host of ['a'.repeat(30) + '!', 'a'.repeat(252) + '!', `${'a1-'.repeat(80)}!`, 'a'.repeat(64)]) {
      const began = Date.now();
      expect((await set(host)).status, host).toBe(400);
      expect(Date.now() - began, host).toBeLessThan(1_000);
    }
  });

  it('refuses a proxy it cannot carry, and writes nothing', async () => {
    const p = await createProfile({ name: 'proxy-refused' });
    const bad = [
      { ...proxy, type: 'socks4' },
      { ...proxy, type: 'ftp' },
      { ...proxy, port: 0 },
      { ...proxy, host: 'user:pw@host' },
      { ...proxy, host: 'a/b' },
      { ...proxy, password: '' },
      { ...proxy, extra: 1 },
    ];
    for (const body of bad) {
      const res = await call(`/api/v1/profiles/${p.id}`, { method: 'PATCH', body: { proxy: body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('request.invalid');
    }
    expect(await storedRow(p.id)).toEqual({ proxy: null, proxy_password: null });
    expect(await proxyEntries(p.id)).toEqual([]);
    // SOCKS4 with a user id and no password is fine.
    const socks4 = await call(`/api/v1/profiles/${p.id}`, {
      method: 'PATCH',
      body: { proxy: { type: 'socks4', host: '127.0.0.1', port: 1080, username: 'uid' } },
    });
    expect(socks4.json.proxy).toEqual({
      type: 'socks4',
      host: '127.0.0.1',
      port: 1080,
      username: 'uid',
      password_set: false,
    });
  });
});
