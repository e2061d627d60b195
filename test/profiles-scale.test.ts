import { expect, it } from 'vitest';
import { durableSql } from '../storage/sql/durable-sql';
import { CursorSigner } from '../storage/profiles/cursor';
import { listProfileRows } from '../storage/profiles/list';
import { PROFILE_SORTS } from '../storage/profiles/schema';
import type { SqlValue } from '../storage/sql/sql';
import { inStore } from './support/store';

it('walks 100,000 profiles by index for every sort key: no sort step, no scan', { timeout: 120_000 }, async () => {
  const plans = await inStore(({ storage, sql }) => {
    sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
       INSERT INTO profiles (id, name, name_lc, grp, tags, pinned, notes, notes_lc, created_at, updated_at)
       SELECT 'scale-' || i, 'Name ' || (i * 7919 % 100000), 'name ' || (i * 7919 % 100000), NULL, '[]', i % 2, NULL, NULL, 1000 + i / 3, 5000 + i / 5 FROM n`,
    );
    const seen: Array<{ query: string; params: SqlValue[] }> = [];
    const db = durableSql(storage);
    const recording = {
      ...db,
      all: <T>(query: string, ...params: SqlValue[]) => (seen.push({ query, params }), db.all<T>(query, ...params)),
    };
    const signer = new CursorSigner(new Uint8Array(32));
    const out: Record<string, string[]> = {};
    for (const sort of PROFILE_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const base = { limit: 50, sort, order, pinned_first: false };
        const first = listProfileRows(recording, signer, base);
        const deep = listProfileRows(recording, signer, { ...base, cursor: first.next_cursor! });
        expect(first.total).toBe(100_000);
        expect(deep.rows).toHaveLength(50);
        const pageQuery = seen[seen.length - 2]!;
        out[`${sort} ${order}`] = sql
          .exec(`EXPLAIN QUERY PLAN ${pageQuery.query}`, ...pageQuery.params)
          .toArray()
          .map((r) => String(r.detail));
      }
    }
    return out;
  });
  for (const [key, plan] of Object.entries(plans)) {
    const text = `${key}: ${plan.join(' | ')}`;
    expect(text).not.toMatch(/TEMP B-TREE/);
    expect(text).toMatch(
      /SEARCH profiles USING (INDEX profiles_by_\w+|INTEGER PRIMARY KEY) \((name_lc|created_at|updated_at|rowid)/,
    );
  }
});
