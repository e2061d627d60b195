import { beforeAll, expect, it } from 'vitest';
import { categoryOf } from '../storage/audit/actions';
import {
  CANONICAL_SQL_COLUMNS,
  canonicalEntry,
  canonicalFromSql,
  chainHash,
  CHAIN_VERSION,
  type CanonicalParts,
} from '../storage/audit/chain';
import { AuditProofs } from '../storage/audit/proofs';
import { VERIFY_RETRY_AFTER_S } from '../handlers/audit';
import type { AuditVerification } from '../storage/audit/schema';
import { entryOf, type AuditRow } from '../storage/audit/record';
import { verifyChain } from '../storage/audit/verify';
import { durableSql } from '../storage/sql/durable-sql';
import { call } from './support/api';
import { auditedWrite, undoTamperingAfterEach, verify } from './support/audit';
import { serviceWith } from './support/service';
import { inStore, sql } from './support/store';

/** Enough entries for several slices of verify (1,000 entries each). */
const ENTRIES = 9_000;

/**
 * The answer of verify in one synchronous pass inside the store, for comparison with the route's.
 * This file writes no anchor, checkpoint or seal, so the keys change nothing here.
 */
const oneShot = () =>
  inStore(({ storage }) => {
    const db = durableSql(storage);
    return verifyChain(db, new AuditProofs(db, { mac: null, signing: null, seals: [] }), Date.now());
  });

/** Appends `count` entries to the real chain, in the store's own hash form, fast enough for a test. */
const appendEntries = (count: number, details: (i: number) => Record<string, unknown>) =>
  inStore(({ storage }) => {
    const db = durableSql(storage);
    let { seq, hash } = db.all<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1',
    )[0]!;
    const ts = Date.now();
    for (let i = 0; i < count; i++) {
      seq += 1;
      const entry = {
        seq,
        id: crypto.randomUUID(),
        ts,
        actor_type: 'system',
        actor_id: null,
        actor_label: 'system',
        source: 'system',
        action: 'globals.write',
        entity_type: 'global',
        entity_id: `g${i}`,
        entity_no: null,
        result: 'ok' as const,
        error_code: null,
        details: details(i),
        request_id: null,
        category: categoryOf('globals.write'),
        v: CHAIN_VERSION,
      };
      hash = chainHash(hash, entry);
      db.run(
        `INSERT INTO audit_log (seq, id, ts, actor_type, actor_id, actor_label, source, action, category, entity_type, entity_id, entity_no, result,
           error_code, details, request_id, hash, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        entry.seq,
        entry.id,
        entry.ts,
        entry.actor_type,
        entry.actor_id,
        entry.actor_label,
        entry.source,
        entry.action,
        entry.category,
        entry.entity_type,
        entry.entity_id,
        entry.entity_no,
        entry.result,
        entry.error_code,
        JSON.stringify(entry.details),
        entry.request_id,
        hash,
        entry.v,
      );
    }
  });

beforeAll(async () => {
  await auditedWrite();
  await appendEntries(ENTRIES, (i) => ({ i, z: 'é', a: [1, { b: null }] }));
});

undoTamperingAfterEach();

it('verifies in several store calls and answers what one pass answers', async () => {
  const calls: string[] = [];
  const res = await call('/api/v1/audit/verify', { fetcher: serviceWith({ calls }) });
  expect(res.status).toBe(200);
  expect(calls.filter((c) => c === 'audit.verifySlice').length).toBeGreaterThan(ENTRIES / 1_000);
  const [{ n }] = (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log')) as [{ n: number }];
  expect(res.json).toEqual({
    ok: true,
    checked: n,
    anchors: 0,
    first_bad_seq: null,
    missing_anchor: null,
    sealed_twice: null,
  });
  expect(res.json).toEqual(await oneShot());
});

it('finds an edit far past the first slice at its seq, as one pass does', async () => {
  const [{ seq }] = (await sql<{ seq: number }>('SELECT max(seq) - 17 AS seq FROM audit_log')) as [{ seq: number }];
  await sql(`UPDATE audit_log SET details = '{"i":1}' WHERE seq = ?`, seq);
  const answer = await verify();
  expect(answer).toMatchObject({ ok: false, first_bad_seq: seq });
  expect(answer).toEqual(await oneShot());
});

it('answers other requests between its slices and checks the entries there were when it began', async () => {
  const calls: string[] = [];
  const service = serviceWith({ calls });
  const [{ n }] = (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log')) as [{ n: number }];
  let verified: AuditVerification | null = null;
  const verifying = call('/api/v1/audit/verify', { fetcher: service }).then(
    (res) => (verified = res.json as AuditVerification),
  );
  while (!calls.includes('audit.verifySlice')) await new Promise((resolve) => setTimeout(resolve, 0));

  const [read, write] = await Promise.all([
    call('/api/v1/profiles?limit=50', { fetcher: service }),
    call('/api/v1/settings/logs', { fetcher: service, method: 'PUT', body: { retention_days: 9 } }),
  ]);
  expect([read.status, write.status]).toEqual([200, 200]);
  expect(verified).toBeNull();
  await verifying;
  expect(calls.lastIndexOf('audit.verifySlice')).toBeGreaterThan(calls.findIndex((c) => c.startsWith('profiles.')));
  // The write's entry came after verify began: it is left to the next verify, which finds it.
  expect(verified).toEqual({
    ok: true,
    checked: n,
    anchors: 0,
    first_bad_seq: null,
    missing_anchor: null,
    sealed_twice: null,
  });
  expect(await verify()).toMatchObject({ ok: true, checked: n + 1 });
});

it('runs one verify at a time: another asked meanwhile answers 429 audit.verify_busy with Retry-After, and the next after it runs', async () => {
  const calls: string[] = [];
  const service = serviceWith({ calls });
  const first = call('/api/v1/audit/verify', { fetcher: service });
  while (!calls.includes('audit.verifySlice')) await new Promise((resolve) => setTimeout(resolve, 0));

  const busy = await call('/api/v1/audit/verify', { fetcher: service });
  expect(busy.status).toBe(429);
  expect(busy.headers.get('retry-after')).toBe(String(VERIFY_RETRY_AFTER_S));
  expect(busy.json.error).toEqual({
    code: 'audit.verify_busy',
    message: expect.any(String),
    details: { retry_after_s: VERIFY_RETRY_AFTER_S },
  });
  expect((await first).json).toMatchObject({ ok: true });
  expect((await call('/api/v1/audit/verify', { fetcher: service })).json).toMatchObject({ ok: true });
});

it("writes SQLite's canonical text of an entry exactly as canonicalEntry does, for every character, integer and form", async () => {
  // Verify hashes SQLite's text and reads a row whole only where that does not match, so this is
  // what keeps verify on its fast path for any real entry.
  const mismatches = await inStore(({ storage }) => {
    const db = durableSql(storage);
    db.run('CREATE TABLE canonical_probe AS SELECT * FROM audit_log WHERE 0');
    const characters = (from: number) =>
      String.fromCodePoint(...Array.from({ length: 512 }, (_, i) => from + i).filter((c) => c < 0xd800 || c > 0xdfff));
    const starts = [...Array.from({ length: 0x10000 / 512 }, (_, i) => i * 512), 0x1f600, 0x10fe00];
    const integers = [0, -1, 1, 2 ** 31, -(2 ** 53) + 1, 2 ** 53 - 1, null];
    starts.forEach((start, i) => {
      db.run(
        `INSERT INTO canonical_probe (seq, id, ts, actor_type, actor_id, actor_label, source, action, category, entity_type, entity_id, entity_no, result,
           error_code, details, request_id, hash, v) VALUES (?, ?, ?, 'token', ?, ?, 'api', 'globals.write', 'automation', NULL, ?, ?, 'ok', ?, ?, ?, 'x', ?)`,
        i + 1,
        characters(start),
        1_700_000_000_000 + i,
        i % 2 ? null : 'tok',
        characters(start),
        `e${characters(start)}`,
        integers[i % integers.length]!,
        i % 3 ? null : 'some.error',
        i % 4 ? JSON.stringify({ z: characters(start), a: [1, -0.5, 1e21, { y: null, b: true }] }) : null,
        i % 5 ? `req_${i}` : null,
        i % 6 === 0 ? 1 : CHAIN_VERSION,
      );
    });
    const rows = db.all<AuditRow & CanonicalParts>(
      `SELECT *, ${CANONICAL_SQL_COLUMNS} FROM canonical_probe ORDER BY seq`,
    );
    db.run('DROP TABLE canonical_probe');
    return rows.filter((row) => canonicalFromSql(row) !== canonicalEntry(entryOf(row))).map((row) => row.seq);
  });
  expect(mismatches).toEqual([]);
});

it('ends a slice early where entries carry large details, and still answers what one pass answers', async () => {
  // 100 entries of 15,000 characters of details each: 1.5 M characters, six slices' worth at most.
  await appendEntries(100, (i) => ({ i, text: 'x'.repeat(15_000) }));
  const entryCalls = async () => {
    const calls: string[] = [];
    const res = await call('/api/v1/audit/verify', { fetcher: serviceWith({ calls }) });
    return { answer: res.json, calls: calls.filter((c) => c === 'audit.verifySlice').length };
  };
  const { answer, calls } = await entryCalls();
  expect(answer).toMatchObject({ ok: true, first_bad_seq: null });
  expect(answer).toEqual(await oneShot());
  // The small entries take 10 slices and the anchors one; the large ones at least six more.
  expect(calls).toBeGreaterThanOrEqual(Math.ceil(ENTRIES / 1_000) + 1 + 6);
});
