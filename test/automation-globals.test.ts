import { describe, expect, it } from 'vitest';
import type { GlobalSummary } from '../storage/globals/schema';
import { call, tokenWith } from './support/api';
import { expectError, LARGE_TIMEOUT_MS } from './support/automation';
import { auditOf, tablesHolding } from './support/automation-store';
import { inStore } from './support/store';

const url = (name: string) => `/api/v1/automation/globals/${name}`;
const put = (name: string, body: unknown) => call(url(name), { method: 'PUT', body });

describe('writing globals', () => {
  it('creates at revision 0 and answers name, revision, UTF-8 bytes and updated_at', async () => {
    const before = Date.now();
    const res = await put('g_create', { value: 'héllo€', expected_revision: 0 });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ name: 'g_create', revision: 1, bytes: 9, updated_at: expect.any(Number) });
    expect(res.json.updated_at).toBeGreaterThanOrEqual(before);
  });

  it('keeps an empty value', async () => {
    expect((await put('g_empty', { value: '', expected_revision: 0 })).json).toMatchObject({ revision: 1, bytes: 0 });
    expect((await call(url('g_empty'))).json).toEqual({ value: '', revision: 1 });
  });

  it('lets exactly one of twenty concurrent creators win', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => put('g_create_race', { value: `c-${i}`, expected_revision: 0 })),
    );
    expect(results.filter((r) => r.status === 200).map((r) => r.json.revision)).toEqual([1]);
    const losers = results.filter((r) => r.status === 409);
    expect(losers).toHaveLength(19);
    for (const loser of losers)
      expect(loser.json.error).toMatchObject({ code: 'state.revision_conflict', details: { current_revision: 1 } });
  });

  it('refuses to create a global that exists, naming the current revision', async () => {
    await put('g_exists', { value: 'a', expected_revision: 0 });
    const res = await put('g_exists', { value: 'b', expected_revision: 0 });
    expectError(res, 409, 'state.revision_conflict');
    expect(res.json.error.details).toEqual({ current_revision: 1 });
    expect((await call(url('g_exists'))).json).toEqual({ value: 'a', revision: 1 });
  });

  it('changes only at the current revision', async () => {
    await put('g_update', { value: 'one', expected_revision: 0 });
    const second = await put('g_update', { value: 'two', expected_revision: 1 });
    expect(second.json).toMatchObject({ name: 'g_update', revision: 2, bytes: 3 });
    const stale = await put('g_update', { value: 'three', expected_revision: 1 });
    expectError(stale, 409, 'state.revision_conflict');
    expect(stale.json.error.details).toEqual({ current_revision: 2 });
    expect((await call(url('g_update'))).json).toEqual({ value: 'two', revision: 2 });
  });

  it('answers a write at a revision of a global that does not exist with current_revision 0', async () => {
    const res = await put('g_absent', { value: 'x', expected_revision: 3 });
    expectError(res, 409, 'state.revision_conflict');
    expect(res.json.error.details).toEqual({ current_revision: 0 });
  });

  it('lets exactly one of twenty concurrent writers at one revision win', async () => {
    await put('g_race', { value: 'start', expected_revision: 0 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => put('g_race', { value: `writer-${i}`, expected_revision: 1 })),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.json.revision).toBe(2);
    const losers = results.filter((r) => r.status === 409);
    expect(losers).toHaveLength(19);
    for (const loser of losers)
      expect(loser.json.error).toMatchObject({ code: 'state.revision_conflict', details: { current_revision: 2 } });
    const read = await call(url('g_race'));
    expect(read.json.revision).toBe(2);
    expect(read.json.value).toBe(`writer-${results.indexOf(winners[0]!)}`);
  });

  it.each([
    ['a number for the value', { value: 1, expected_revision: 0 }],
    ['null for the value', { value: null, expected_revision: 0 }],
    ['no value', { expected_revision: 0 }],
    ['a string revision', { value: 'x', expected_revision: '0' }],
    ['a fractional revision', { value: 'x', expected_revision: 0.5 }],
    ['a negative revision', { value: 'x', expected_revision: -1 }],
    ['a revision past 2^53-1', { value: 'x', expected_revision: 9007199254740992 }],
    ['no revision', { value: 'x' }],
    ['another field', { value: 'x', expected_revision: 0, extra: true }],
    ['a lone surrogate', { value: 'a\ud800b', expected_revision: 0 }],
  ])('refuses %s', async (_, body) => {
    const res = await put('g_types', body);
    expectError(res, 400, 'request.invalid');
    expect((await call(url('g_types'))).status).toBe(404);
  });

  it('takes a revision of 2^53-1 as a number (and finds it stale)', async () => {
    await put('g_maxrev', { value: 'x', expected_revision: 0 });
    const res = await put('g_maxrev', { value: 'y', expected_revision: 9007199254740991 });
    expectError(res, 409, 'state.revision_conflict');
  });

  it.each(['1abc', 'a-b', 'a.b', 'é', 'a'.repeat(65), '%20a'])('refuses the name %s', async (name) => {
    expectError(await put(encodeURIComponent(name), { value: 'x', expected_revision: 0 }), 400, 'request.invalid');
  });

  it('accepts a name of 64 characters and one starting with _', async () => {
    const long = `N${'x'.repeat(63)}`;
    expect((await put(long, { value: 'x', expected_revision: 0 })).json).toMatchObject({ name: long, revision: 1 });
    expect((await put('_under', { value: 'x', expected_revision: 0 })).status).toBe(200);
  });
});

describe('large values', () => {
  it(
    'accepts 1,048,576 characters even when every one is escaped as \\u00XX',
    async () => {
      const value = '\u0001'.repeat(1_048_576);
      const res = await put('g_big_escaped', { value, expected_revision: 0 });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ revision: 1, bytes: 1_048_576 });
      const read = await call(url('g_big_escaped'));
      expect(read.json.value === value).toBe(true);
    },
    LARGE_TIMEOUT_MS,
  );

  it(
    'keeps a value larger than one storage row (3 MiB of UTF-8) whole',
    async () => {
      const value = '€'.repeat(1_048_576);
      const res = await put('g_big_utf8', { value, expected_revision: 0 });
      expect(res.json).toMatchObject({ revision: 1, bytes: 3 * 1_048_576 });
      const read = await call(url('g_big_utf8'));
      expect(read.json.revision).toBe(1);
      expect(read.json.value === value).toBe(true);
      const pieces = await inStore(
        ({ sql }) => sql.exec(`SELECT count(*) AS n FROM automation_chunks WHERE owner = 'global:g_big_utf8'`).one().n,
      );
      expect(pieces).toBeGreaterThan(1);
    },
    LARGE_TIMEOUT_MS,
  );

  it(
    'answers 413 for a body beyond what the largest legal value needs',
    async () => {
      const res = await put('g_too_large_body', { value: '\u0001'.repeat(1_100_000), expected_revision: 0 });
      expectError(res, 413, 'request.too_large');
    },
    LARGE_TIMEOUT_MS,
  );

  it(
    'refuses 1,048,577 characters',
    async () => {
      const res = await put('g_too_big', { value: 'a'.repeat(1_048_577), expected_revision: 0 });
      expectError(res, 400, 'request.invalid');
      expect(res.json.error.details.issues[0]).toMatchObject({ in: 'body', path: ['value'], code: 'too_big' });
    },
    LARGE_TIMEOUT_MS,
  );
});

describe('reading and listing', () => {
  it('lists summaries without values, by name', async () => {
    await put('g_list_b', { value: 'LIST-SECRET-B', expected_revision: 0 });
    await put('g_list_a', { value: 'LIST-SECRET-A', expected_revision: 0 });
    const res = await call('/api/v1/automation/globals');
    expect(res.status).toBe(200);
    const mine = res.json.items.filter((g: GlobalSummary) => g.name.startsWith('g_list_'));
    expect(mine).toEqual([
      { name: 'g_list_a', revision: 1, bytes: 13, updated_at: expect.any(Number) },
      { name: 'g_list_b', revision: 1, bytes: 13, updated_at: expect.any(Number) },
    ]);
    expect(res.text).not.toContain('LIST-SECRET');
  });

  it('audits a read of the value in the same transaction, without the value', async () => {
    await put('g_audited', { value: 'AUDITED-VALUE', expected_revision: 0 });
    const res = await call(url('g_audited'));
    expect(res.json).toEqual({ value: 'AUDITED-VALUE', revision: 1 });
    const reads = await auditOf('globals.read', 'g_audited');
    expect(reads).toEqual([
      {
        action: 'globals.read',
        category: 'account',
        result: 'ok',
        entity_type: 'global',
        entity_id: 'g_audited',
        error_code: null,
        details: { revision: 1 },
      },
    ]);
    const writes = await auditOf('globals.write', 'g_audited');
    expect(writes).toEqual([expect.objectContaining({ result: 'ok', details: { revision: 1, bytes: 13 } })]);
  });

  it('answers 404 for a global that does not exist', async () => {
    expectError(await call(url('g_nowhere')), 404, 'resource.not_found');
  });

  it('needs secrets:read to read a value and rpa:write to change one', async () => {
    await put('g_scoped', { value: 'x', expected_revision: 0 });
    const reader = await tokenWith(['runtime:control']);
    const read = await call(url('g_scoped'), { token: reader.token });
    expectError(read, 403, 'auth.scope_missing');
    expect(read.json.error.details.missing).toEqual(['secrets:read']);
    expect((await call('/api/v1/automation/globals', { token: reader.token })).status).toBe(200);
    const write = await call(url('g_scoped'), {
      method: 'PUT',
      token: reader.token,
      body: { value: 'y', expected_revision: 1 },
    });
    expect(write.json.error.details.missing).toEqual(['secrets:read', 'rpa:write']);
  });

  it('stores values only encrypted', async () => {
    await put('g_sealed', { value: 'PLAINTEXT-GLOBAL-VALUE-7f3a', expected_revision: 0 });
    expect(await tablesHolding('PLAINTEXT-GLOBAL-VALUE-7f3a')).toEqual([]);
    expect((await call(url('g_sealed'))).json.value).toBe('PLAINTEXT-GLOBAL-VALUE-7f3a');
  });
});

describe('deleting globals', () => {
  it.each([
    ['no expected_revision', ''],
    ['revision 0', '?expected_revision=0'],
    ['a revision past 2^53-1', '?expected_revision=9007199254740992'],
    ['a non-number', '?expected_revision=abc'],
    ['a leading zero', '?expected_revision=01'],
    ['an unknown parameter', '?expected_revision=1&force=true'],
  ])('refuses %s', async (_, query) => {
    await put('g_del_bad', { value: 'x', expected_revision: 0 });
    expectError(await call(`${url('g_del_bad')}${query}`, { method: 'DELETE' }), 400, 'request.invalid');
  });

  it('deletes only at the current revision; a new global of the name continues the revisions', async () => {
    await put('g_delete', { value: 'x', expected_revision: 0 });
    await put('g_delete', { value: 'y', expected_revision: 1 });
    const stale = await call(`${url('g_delete')}?expected_revision=1`, { method: 'DELETE' });
    expectError(stale, 409, 'state.revision_conflict');
    expect(stale.json.error.details).toEqual({ current_revision: 2 });
    const res = await call(`${url('g_delete')}?expected_revision=2`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expectError(await call(url('g_delete')), 404, 'resource.not_found');
    const list = await call('/api/v1/automation/globals');
    expect(list.json.items.map((g: GlobalSummary) => g.name)).not.toContain('g_delete');
    expectError(await call(`${url('g_delete')}?expected_revision=2`, { method: 'DELETE' }), 404, 'resource.not_found');
    // A writer still holding revision 2 of the deleted value cannot overwrite the new one.
    expectError(await put('g_delete', { value: 'late', expected_revision: 2 }), 409, 'state.revision_conflict');
    expect((await put('g_delete', { value: 'again', expected_revision: 0 })).json).toMatchObject({ revision: 3 });
    expect(await auditOf('globals.delete', 'g_delete')).toEqual([
      expect.objectContaining({ result: 'ok', details: { revision: 2 } }),
    ]);
  });
});
