import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditFilters } from '../storage/audit/filters';
import { pageSql, whereClause } from '../storage/audit/query';
import { AuditEntry } from '../storage/audit/schema';
import { durableSql } from '../storage/sql/durable-sql';
import { call, tokenWith } from './support/api';
import { inStore, sql } from './support/store';

const T1 = Date.UTC(2031, 2, 10, 9, 0, 0);
const T2 = T1 + 3_600_000;
const ENTRY_KEYS = Object.keys(AuditEntry.shape);

const list = async (query: string) => {
  const res = await call(`/api/v1/audit${query}`);
  return { ...res, items: (res.json?.items ?? []) as AuditEntry[] };
};

let token: { id: string; token: string; name: string };
let putRequestId: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T1);
  token = await tokenWith(['settings:write'], 'List-Token-Alpha');
  await call('/api/v1/settings/logs', { token: 'lpa_wrong', method: 'GET' });
  vi.setSystemTime(T2);
  const put = await call('/api/v1/settings/logs', { method: 'PUT', body: { retention_days: 9 } });
  putRequestId = put.headers.get('x-request-id')!;
  await call('/api/v1/settings/logs', { method: 'PUT', body: { retention_days: 0 } });
});

afterAll(() => {
  vi.useRealTimers();
});

describe('GET /api/v1/audit', () => {
  it('lists entries newest first, with every field of the spec and nothing else', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['items', 'next_before_seq']);
    expect(res.json.next_before_seq).toBeNull();
    const seqs = res.items.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs.length - i));
    for (const entry of res.items) expect(Object.keys(entry)).toEqual(ENTRY_KEYS);
    const put = res.items.find((e) => e.request_id === putRequestId)!;
    expect(put).toEqual({
      seq: expect.any(Number),
      id: expect.any(String),
      ts: T2,
      actor_type: 'admin',
      actor_id: null,
      actor_label: 'admin',
      source: 'api',
      action: 'settings.logs_write',
      entity_type: 'settings',
      entity_id: 'logs',
      entity_no: null,
      result: 'ok',
      error_code: null,
      details: { retention_days: 9, kernel_retention_days: 14 },
      request_id: putRequestId,
    });
  });

  it('records a failed change and a denial with their codes', async () => {
    const failed = await list('?result=error');
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({
      action: 'settings.logs_write',
      result: 'error',
      error_code: 'request.invalid',
      actor_type: 'admin',
    });
    const denied = await list('?result=denied');
    expect(denied.items).toHaveLength(1);
    expect(denied.items[0]).toMatchObject({
      action: 'auth.denied',
      result: 'denied',
      error_code: 'auth.token_invalid',
      actor_type: 'anonymous',
    });
  });

  it('pages with next_before_seq until it is null', async () => {
    const all = (await list('')).items.map((e) => e.seq);
    const seen: number[] = [];
    let query = '?limit=2';
    for (;;) {
      const res = await list(query);
      expect(res.status).toBe(200);
      seen.push(...res.items.map((e) => e.seq));
      if (res.json.next_before_seq === null) break;
      expect(res.json.next_before_seq).toBe(res.items[1]!.seq);
      query = `?limit=2&before_seq=${res.json.next_before_seq}`;
    }
    expect(seen).toEqual(all);
    const exact = await list(`?limit=${all.length}`);
    expect(exact.json.next_before_seq).toBeNull();
  });

  it('applies each filter', async () => {
    expect((await list('?category=startup')).items.map((e) => e.action)).toEqual(['service.start']);
    expect((await list('?action=tokens.create')).items.map((e) => e.entity_id)).toEqual([token.id]);
    expect((await list(`?entity_id=${token.id}`)).items.map((e) => e.action)).toEqual(['tokens.create']);
    expect((await list('?actor_type=anonymous')).items.map((e) => e.action)).toEqual(['auth.denied']);
    expect((await list('?source=system')).items.map((e) => e.action)).toEqual(['service.start']);
    expect((await list('?search=list-token-ALPHA')).items.map((e) => e.action)).toEqual(['tokens.create']);
    expect((await list('?search=nothing-has-this')).items).toEqual([]);
    expect((await list(`?from=${T2}`)).items.every((e) => e.ts >= T2)).toBe(true);
    expect((await list(`?from=${T2}`)).items.map((e) => e.action)).toEqual([
      'settings.logs_write',
      'settings.logs_write',
    ]);
    expect((await list(`?to=${T1}`)).items.every((e) => e.ts <= T1)).toBe(true);
    expect((await list(`?to=${T1}`)).items.length).toBe(3);
    expect((await list(`?from=${T1}&to=${T1}`)).items.length).toBe(3);
    expect((await list(`?from=${T2 + 1}`)).items).toEqual([]);
    expect((await list(`?to=${T1 - 1}`)).items).toEqual([]);
    expect((await list('?category=account&result=ok&limit=1')).items.map((e) => e.action)).toEqual([
      'settings.logs_write',
    ]);
    expect((await list('?category=profile')).items).toEqual([]);
  });

  it('filters by entity_no', async () => {
    const [{ seq }] = (await sql<{ seq: number }>('SELECT max(seq) AS seq FROM audit_log')) as [{ seq: number }];
    await sql(
      `INSERT INTO audit_log (seq, id, ts, actor_type, actor_label, source, action, category, entity_type, entity_id, entity_no, result, hash)
       VALUES (?, 'entity-no-row', ?, 'system', 'system', 'system', 'service.start', 'startup', 'profile', 'p-77', 77, 'ok', 'x')`,
      seq + 1,
      T2,
    );
    expect((await list('?entity_no=77')).items.map((e) => e.id)).toEqual(['entity-no-row']);
    expect((await list('?entity_no=78')).items).toEqual([]);
    await sql(`DELETE FROM audit_log WHERE id = 'entity-no-row'`);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=01', 'limit'],
    ['before_seq=0', 'before_seq'],
    ['category=system', 'category'],
    ['result=maybe', 'result'],
    [`action=${'a'.repeat(101)}`, 'action'],
    [`source=${'s'.repeat(21)}`, 'source'],
    [`actor_type=${'t'.repeat(21)}`, 'actor_type'],
    [`entity_id=${'e'.repeat(65)}`, 'entity_id'],
    ['entity_no=0', 'entity_no'],
    [`search=${'q'.repeat(201)}`, 'search'],
    ['from=-1', 'from'],
    ['to=1.5', 'to'],
    ['from=10&to=9', 'from'],
    ['action=', 'action'],
    ['limit=1&limit=2', 'limit'],
  ])('answers 400 for %s', async (query, field) => {
    const res = await call(`/api/v1/audit?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    expect(res.json.error.details.issues.map((i: { in: string; path: string[] }) => [i.in, i.path[0]])).toContainEqual([
      'query',
      field,
    ]);
  });

  it('answers 400 for an unknown parameter', async () => {
    const res = await call('/api/v1/audit?colour=red');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
    expect(res.json.error.details.issues[0]).toMatchObject({ in: 'query', code: 'unrecognized_keys' });
  });

  it('accepts the bounds themselves', async () => {
    for (const query of [
      'limit=1',
      'limit=1000',
      'before_seq=1',
      'from=0',
      'to=0',
      'entity_no=1',
      `action=${'a'.repeat(100)}`,
      `source=${'s'.repeat(20)}`,
      `actor_type=${'t'.repeat(20)}`,
      `entity_id=${'e'.repeat(64)}`,
      `search=${'q'.repeat(200)}`,
      'from=5&to=5',
      ...['account', 'profile', 'startup', 'proxy', 'team'].map((c) => `category=${c}`),
      ...['ok', 'denied', 'error'].map((r) => `result=${r}`),
    ]) {
      const res = await call(`/api/v1/audit?${query}`);
      expect([query, res.status]).toEqual([query, 200]);
    }
    expect((await list('?before_seq=1')).items).toEqual([]);
  });

  it('needs audit:read, and records the refusal', async () => {
    const res = await call('/api/v1/audit', { token: token.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 'auth.scope_missing', details: { missing: ['audit:read'] } });
    const [row] = await sql(
      'SELECT actor_type, actor_id, action, result, error_code FROM audit_log WHERE request_id = ?',
      res.headers.get('x-request-id')!,
    );
    expect(row).toEqual({
      actor_type: 'token',
      actor_id: token.id,
      action: 'auth.denied',
      result: 'denied',
      error_code: 'auth.scope_missing',
    });
    expect((await call('/api/v1/audit', { token: null })).status).toBe(401);
  });
});

describe('GET /api/v1/audit/verify', () => {
  it('needs audit:read and takes no parameters', async () => {
    const refused = await call('/api/v1/audit/verify', { token: token.token });
    expect([refused.status, refused.json.error.code, refused.json.error.details]).toEqual([
      403,
      'auth.scope_missing',
      { missing: ['audit:read'] },
    ]);
    const extra = await call('/api/v1/audit/verify?from=1');
    expect([extra.status, extra.json.error.code]).toEqual([400, 'request.invalid']);
    const reader = await tokenWith(['audit:read']);
    const res = await call('/api/v1/audit/verify', { token: reader.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual([
      'ok',
      'checked',
      'anchors',
      'first_bad_seq',
      'missing_anchor',
      'sealed_twice',
    ]);
  });
});

describe('indexes', () => {
  const plan = (filters: AuditFilters, start = {}) =>
    inStore(({ storage }) => {
      const db = durableSql(storage);
      const where = whereClause(db, filters, start)!;
      const query = `EXPLAIN QUERY PLAN ${pageSql(where, 'DESC')}`;
      return db.all<{ detail: string }>(query, ...where.params, 101).map((r) => r.detail);
    });

  it.each<[string, AuditFilters]>([
    ['category', { category: 'account' }],
    ['action', { action: 'tokens.create' }],
    ['source', { source: 'api' }],
    ['actor_type', { actor_type: 'admin' }],
    ['entity_id', { entity_id: 'x' }],
    ['entity_no', { entity_no: 3 }],
    ['result', { result: 'ok' }],
    ['from and to', { from: T1, to: T2 }],
    ['category with search', { category: 'account', search: 'x' }],
  ])('a %s filter searches an index and never sorts', async (_name, filters) => {
    const details = await plan(filters, { before_seq: 1000 });
    const outer = details.filter((d) => / a\b/.test(d));
    expect(outer).toHaveLength(1);
    expect(outer[0]).toMatch(/^SEARCH a USING (INDEX audit_log_\w+|INTEGER PRIMARY KEY) /);
    expect(details.join('\n')).not.toMatch(/TEMP B-TREE/);
    expect(details.filter((d) => / p\b/.test(d))).toEqual(['SEARCH p USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN']);
  });
});
