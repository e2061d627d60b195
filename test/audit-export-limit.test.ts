import { beforeAll, expect, it } from 'vitest';
import { MAX_EXPORT_BYTES, MAX_EXPORT_ENTRIES } from '../handlers/audit-export';
import { MAX_DETAILS_CHARS } from '../storage/audit/log';
import { call } from './support/api';
import { serviceWith } from './support/service';
import { sql } from './support/store';

/** Rows written straight into the table (their hashes are not a chain; this file never verifies). */
async function insertRows(count: number, category: string, details: string, ts: number) {
  const [{ seq }] = (await sql<{ seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM audit_log')) as [
    { seq: number },
  ];
  await sql(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO audit_log (seq, id, ts, actor_type, actor_label, source, action, category, result, details, hash)
     SELECT ? + i, 'bulk-' || (? + i), ?, 'system', 'system', 'system', 'audit.purge', ?, 'ok', ${details}, 'x' FROM n`,
    count,
    seq,
    seq,
    ts,
    category,
  );
}

const BIG = Math.ceil(MAX_EXPORT_BYTES / MAX_DETAILS_CHARS) + 10;
let manyFrom: number;

beforeAll(async () => {
  await call('/api/v1/audit');
  manyFrom = Date.now() + 1;
  await insertRows(MAX_EXPORT_ENTRIES + 1, 'account', 'NULL', manyFrom);
  // Entries with the largest details an entry keeps: well under the entry limit, over the byte limit.
  await insertRows(BIG, 'team', `'{"pad":"' || hex(zeroblob(${MAX_DETAILS_CHARS / 2 - 5})) || '"}'`, manyFrom + 1);
});

it('refuses an export of more entries than one response holds, with the count', async () => {
  const res = await call('/api/v1/audit/export?format=jsonl');
  const [{ n }] = (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log')) as [{ n: number }];
  expect(res.status).toBe(413);
  expect(res.json.error).toEqual({
    code: 'audit.export_too_large',
    message: expect.any(String),
    details: { count: n, max_entries: MAX_EXPORT_ENTRIES, max_bytes: MAX_EXPORT_BYTES },
  });
  expect(n).toBeGreaterThan(MAX_EXPORT_ENTRIES);
});

it('refuses an export whose file would pass the byte limit', async () => {
  const res = await call('/api/v1/audit/export?format=csv&category=team');
  expect(res.status).toBe(413);
  expect(res.json.error).toMatchObject({
    code: 'audit.export_too_large',
    details: { count: BIG, max_entries: MAX_EXPORT_ENTRIES, max_bytes: MAX_EXPORT_BYTES },
  });
});

it('refuses before it builds anything: too many entries are refused on the count, too many bytes before an entry is read', async () => {
  const calls: string[] = [];
  const service = serviceWith({ calls });
  const exportCalls = async (query: string) => {
    calls.length = 0;
    const res = await call(`/api/v1/audit/export?${query}`, { fetcher: service });
    expect(res.status).toBe(413);
    return calls.filter((c) => c.startsWith('audit.'));
  };
  expect(await exportCalls('format=jsonl')).toEqual(['audit.extent']);
  const tooManyBytes = await exportCalls('format=csv&category=team');
  expect(tooManyBytes[0]).toBe('audit.extent');
  expect(new Set(tooManyBytes.slice(1))).toEqual(new Set(['audit.exportPageSize']));
});

it('serves a narrower export of the same log', async () => {
  const res = await call(
    `/api/v1/audit/export?format=csv&category=team&to=${manyFrom + 1}&from=${manyFrom + 1}&search=bulk-${MAX_EXPORT_ENTRIES + 50}`,
  );
  expect(res.status).toBe(200);
  expect(res.json.count).toBe(1);
});

it('lists the big log page by page', async () => {
  const first = await call('/api/v1/audit?limit=1000&category=account');
  expect(first.json.items).toHaveLength(1000);
  const second = await call(`/api/v1/audit?limit=1000&category=account&before_seq=${first.json.next_before_seq}`);
  expect(second.json.items[0].seq).toBe(first.json.next_before_seq - 1);
});
