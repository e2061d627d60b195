import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '../src/shared/base64';
import { call, tokenWith } from './support/api';
import type { Profile, ProfilePage, ProfileSort } from '../storage/profiles/schema';
import { createProfile } from './support/profiles';

type Query = Record<string, string | number | boolean | undefined>;

const list = async (query: Query) => {
  const qs = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
  );
  return call(`/api/v1/profiles?${qs}`);
};

async function page(query: Query): Promise<ProfilePage> {
  const res = await list(query);
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
  return res.json as ProfilePage;
}

/** Profiles of a group of their own, so a test sees only what it made. */
async function seed(group: string, specs: Array<Record<string, unknown>>): Promise<Profile[]> {
  const out: Profile[] = [];
  for (const spec of specs) out.push(await createProfile({ name: `${group}-${out.length}`, group, ...spec }));
  return out;
}

const sortValue = (p: Profile, sort: ProfileSort) => (sort === 'name' ? p.name.toLowerCase() : p[sort]);

/** The order the service promises: the sort key, then `no`, both in the given direction. */
function expectedOrder(profiles: Profile[], sort: ProfileSort, order: 'asc' | 'desc'): string[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...profiles]
    .sort((a, b) => {
      const [x, y] = [sortValue(a, sort), sortValue(b, sort)];
      return sign * (x < y ? -1 : x > y ? 1 : a.no - b.no);
    })
    .map((p) => p.id);
}

describe('profile list: answer shape and bounds', () => {
  it('lists with defaults: sort by no ascending, 50 a page, total and a cursor when more follow', async () => {
    const mine = await seed(
      'list-defaults',
      Array.from({ length: 3 }, () => ({})),
    );
    const res = await list({ group: 'list-defaults' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ items: mine, next_cursor: null, total: 3 });
    const first = await page({ group: 'list-defaults', limit: 2 });
    expect(first).toEqual({ items: mine.slice(0, 2), next_cursor: expect.any(String), total: 3 });
    const second = await page({ group: 'list-defaults', limit: 2, cursor: first.next_cursor! });
    expect(second).toEqual({ items: mine.slice(2), next_cursor: null, total: 3 });
  });

  it('the default page holds 50', async () => {
    await seed(
      'list-fifty',
      Array.from({ length: 51 }, () => ({})),
    );
    const first = await page({ group: 'list-fifty' });
    expect(first.items).toHaveLength(50);
    expect(first.total).toBe(51);
    expect(first.next_cursor).not.toBeNull();
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 1001 }, 'limit'],
    [{ limit: 'x' }, 'limit'],
    [{ page: 0 }, 'page'],
    [{ sort: 'id' }, 'sort'],
    [{ order: 'up' }, 'order'],
    [{ pinned_first: 'yes' }, 'pinned_first'],
    [{ pinned: '1' }, 'pinned'],
    [{ q: '' }, 'q'],
    [{ q: 'q'.repeat(201) }, 'q'],
    [{ tag: 't'.repeat(65) }, 'tag'],
    [{ group: 'g'.repeat(121) }, 'group'],
    [{ colour: 'red' }, ''],
    [{ cursor: 'abc', pinned_first: true }, 'pinned_first'],
    [{ cursor: 'abc', page: 2 }, 'page'],
  ])('refuses %j with 400 request.invalid', async (query, field) => {
    const res = await list(query as Record<string, string | number>);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    expect(res.json.error.details.issues[0]).toMatchObject({ in: 'query', path: field ? [field] : [] });
  });

  it('accepts limit 1 and 1000', async () => {
    await seed('list-limits', [{}, {}]);
    expect((await page({ group: 'list-limits', limit: 1 })).items).toHaveLength(1);
    expect((await page({ group: 'list-limits', limit: 1000 })).items).toHaveLength(2);
  });

  it('needs profiles:read', async () => {
    const { token } = await tokenWith(['profiles:write']);
    const res = await call('/api/v1/profiles', { token });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['profiles:read'] } });
  });
});

describe('profile list: sorting, filters, pages', () => {
  it.each(['no', 'name', 'created_at', 'updated_at'] as const)(
    'sorts by %s both ways, ties broken by no',
    async (sort) => {
      const group = `list-sort-${sort}`;
      // Equal names in different case, so the name sort has ties to break.
      const mine = await seed(group, [
        { name: 'beta' },
        { name: 'Alpha' },
        { name: 'alpha' },
        { name: 'Gamma' },
        { name: 'delta' },
      ]);
      await call(`/api/v1/profiles/${mine[0]!.id}`, { method: 'PATCH', body: { notes: 'touched' } });
      const current = (await page({ group })).items;
      for (const order of ['asc', 'desc'] as const) {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const p: ProfilePage = await page({ group, sort, order, limit: 2, ...(cursor ? { cursor } : {}) });
          ids.push(...p.items.map((i) => i.id));
          cursor = p.next_cursor;
        } while (cursor);
        expect(ids).toEqual(expectedOrder(current, sort, order));
        expect((await page({ group, sort, order })).items.map((i) => i.id)).toEqual(ids);
      }
    },
  );

  it('pages by page number, pinned first when asked, with no cursor for that order', async () => {
    const group = 'list-pinned';
    const mine = await seed(group, [{}, { pinned: true }, {}, { pinned: true }, {}]);
    const pinnedFirst = [mine[1], mine[3], mine[0], mine[2], mine[4]].map((p) => p!.id);
    const p1 = await page({ group, pinned_first: true, limit: 2, page: 1 });
    const p2 = await page({ group, pinned_first: true, limit: 2, page: 2 });
    const p3 = await page({ group, pinned_first: true, limit: 2, page: 3 });
    expect([...p1.items, ...p2.items, ...p3.items].map((i) => i.id)).toEqual(pinnedFirst);
    expect([p1.next_cursor, p2.next_cursor, p3.next_cursor]).toEqual([null, null, null]);
    expect(p1.total).toBe(5);
    const desc = await page({ group, pinned_first: true, order: 'desc' });
    expect(desc.items.map((i) => i.id)).toEqual([mine[3], mine[1], mine[4], mine[2], mine[0]].map((p) => p!.id));
    const beyond = await page({ group, limit: 2, page: 4 });
    expect(beyond).toEqual({ items: [], next_cursor: null, total: 5 });
    // A page number without pinned_first hands out a cursor that continues after that page.
    const second = await page({ group, limit: 2, page: 2 });
    expect(second.items.map((i) => i.id)).toEqual([mine[2]!.id, mine[3]!.id]);
    expect((await page({ group, limit: 2, cursor: second.next_cursor! })).items.map((i) => i.id)).toEqual([
      mine[4]!.id,
    ]);
  });

  it('filters by group, tag, pinned and q (name or notes, any case)', async () => {
    const group = 'list-filter';
    const mine = await seed(group, [
      { name: 'Filter Zebra', tags: ['red', 'blue'] },
      { name: 'filter other', tags: ['blue'], pinned: true, notes: 'has a ZEBRA inside' },
      { name: 'filter Ünïcode', tags: [], pinned: true },
    ]);
    await seed('list-filter-other', [{ name: 'zebra elsewhere', tags: ['red'] }]);
    const ids = (p: ProfilePage) => p.items.map((i) => i.id);
    expect(ids(await page({ group, tag: 'blue' }))).toEqual([mine[0]!.id, mine[1]!.id]);
    expect(ids(await page({ group, tag: 'red' }))).toEqual([mine[0]!.id]);
    expect(ids(await page({ group, pinned: true }))).toEqual([mine[1]!.id, mine[2]!.id]);
    expect(ids(await page({ group, pinned: false }))).toEqual([mine[0]!.id]);
    expect(ids(await page({ group, q: 'zebra' }))).toEqual([mine[0]!.id, mine[1]!.id]);
    expect(ids(await page({ group, q: 'ÜNÏ' }))).toEqual([mine[2]!.id]);
    expect(ids(await page({ group, q: '%' }))).toEqual([]);
    const both = await page({ group, tag: 'blue', pinned: true, q: 'zebra' });
    expect(both).toEqual({ items: [mine[1]], next_cursor: null, total: 1 });
    expect(await page({ group: 'no-such-group' })).toEqual({ items: [], next_cursor: null, total: 0 });
  });
});

describe('profile list: cursors', () => {
  const walks = (['no', 'name', 'created_at', 'updated_at'] as const).flatMap((sort) =>
    (['asc', 'desc'] as const).map((order) => [sort, order] as const),
  );
  it.each(walks)(
    'a traversal by %s %s sees every profile that existed throughout exactly once while others come and go',
    { timeout: 30_000 },
    async (sort, order) => {
      const group = `list-walk-${sort}-${order}`;
      const names = ['m', 'c', 'x', 'a', 'q', 'f', 'z', 'b', 'k', 'p', 'd', 'w'];
      const stable = await seed(
        group,
        names.map((n) => ({ name: `${n}-stable` })),
      );
      const doomed = await seed(
        group,
        names.slice(0, 6).map((n) => ({ name: `${n}-doomed` })),
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      let round = 0;
      do {
        const p: ProfilePage = await page({ group, sort, order, limit: 3, ...(cursor ? { cursor } : {}) });
        seen.push(...p.items.map((i) => i.id));
        cursor = p.next_cursor;
        // Between pages: a newcomer on either side of the cursor, and one of the doomed goes.
        await createProfile({ name: `${names[round % names.length]}-new-${round}`, group });
        await createProfile({ name: `0-new-${round}`, group });
        const victim = doomed[round];
        if (victim) expect((await call(`/api/v1/profiles/${victim.id}`, { method: 'DELETE' })).status).toBe(204);
        round += 1;
      } while (cursor);
      expect(new Set(seen).size).toBe(seen.length);
      for (const p of stable) expect(seen).toContain(p.id);
    },
  );

  it('refuses an altered or forged cursor with 400 request.cursor_invalid', async () => {
    const group = 'list-forged';
    await seed(group, [{}, {}, {}]);
    const { next_cursor } = await page({ group, limit: 1 });
    const [body, mac] = next_cursor!.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body)));
    const rewritten = toBase64Url(new TextEncoder().encode(JSON.stringify({ ...payload, n: 0 })));
    for (const cursor of [
      `${flip(body, 5)}.${mac}`,
      `${body}.${flip(mac, 3)}`,
      `${rewritten}.${mac}`,
      'garbage',
      `${body}.`,
      `${next_cursor}.x`,
      `.${mac}`,
    ]) {
      const res = await list({ group, limit: 1, cursor });
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: 'request.cursor_invalid', message: expect.any(String), details: {} });
    }
  });

  it('refuses a cursor used with another sort, order or filter with 400 request.cursor_mismatch', async () => {
    const group = 'list-mismatch';
    await seed(group, [{ tags: ['t'] }, { tags: ['t'] }, { tags: ['t'] }]);
    const { next_cursor: cursor } = await page({ group, limit: 1, sort: 'name' });
    expect((await list({ group, limit: 1, sort: 'name', cursor: cursor! })).status).toBe(200);
    // The page size is not part of the traversal; anything else is.
    expect((await list({ group, limit: 5, sort: 'name', cursor: cursor! })).status).toBe(200);
    for (const other of [
      { sort: 'no' },
      { sort: 'name', order: 'desc' },
      { sort: 'name', group: 'list-mismatch-2' },
      { sort: 'name', tag: 't' },
      { sort: 'name', pinned: false },
      { sort: 'name', q: 'list' },
    ]) {
      const res = await list({ group, limit: 1, cursor: cursor!, ...other });
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: 'request.cursor_mismatch', message: expect.any(String), details: {} });
    }
    const withoutGroup = await list({ limit: 1, sort: 'name', cursor: cursor! });
    expect(withoutGroup.json.error.code).toBe('request.cursor_mismatch');
  });
});
