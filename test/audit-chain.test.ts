import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hostClient } from '../src/host/port';
import { anchorSigned, sealDue, sealMac } from '../storage/audit/anchors';
import { AuditProofs } from '../storage/audit/proofs';
import { publicKeyFromPem, signatureValid } from '../storage/audit/signing';
import { chainHash } from '../storage/audit/chain';
import { entryOf, type AuditRow } from '../storage/audit/record';
import { verifyChain } from '../storage/audit/verify';
import { durableSql } from '../storage/sql/durable-sql';
import { SYSTEM_ACTOR } from '../storage/audit/entry';
import { MAX_DETAILS_CHARS } from '../storage/audit/log';
import { call } from './support/api';
import { auditedWrite, DAY, runDaily, undoTamperingAfterEach, verify } from './support/audit';
import { inStore, sql } from './support/store';

const D1 = Date.UTC(2031, 4, 1);
const D2 = D1 + DAY;
const D3 = D2 + DAY;
const D4 = D3 + DAY;
const [DAY1, DAY2, DAY3] = ['2031-05-01', '2031-05-02', '2031-05-03'];

/** The seqs of each day, as written in beforeAll. */
let day1: number[];
let day2: number[];
let day3: number[];

const seqsBetween = async (from: number, to: number) =>
  (await sql<{ seq: number }>('SELECT seq FROM audit_log WHERE ts >= ? AND ts < ? ORDER BY seq', from, to)).map(
    (r) => r.seq,
  );

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  for (const day of [D1, D2, D3]) {
    // The daily job seals the day before, a few seconds after midnight.
    if (day !== D1) await runDaily(day + 5_000);
    vi.setSystemTime(day + 10 * 3_600_000);
    for (let i = 0; i < 3; i++) await auditedWrite(10 + i);
  }
  [day1, day2, day3] = await Promise.all([seqsBetween(D1, D2), seqsBetween(D2, D3), seqsBetween(D3, D4)]);
});

afterAll(() => {
  vi.useRealTimers();
});

describe('a chain across three days', () => {
  it('was sealed day by day by the daily job, each anchor MACed and signed', async () => {
    expect([day1, day2, day3]).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7],
      [8, 9, 10],
    ]);
    const key = (await hostClient(env.HOST).keys.read('audit', false))!;
    const anchors = await sql<{
      day: string;
      seq: number;
      hash: string;
      mac: string;
      signature: string;
      created_at: number;
    }>('SELECT * FROM audit_anchor ORDER BY day');
    const heads = await sql<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_log WHERE seq IN (4, 7) ORDER BY seq',
    );
    expect(anchors.map(({ signature: _, ...anchor }) => anchor)).toEqual([
      {
        day: DAY1,
        seq: 4,
        hash: heads[0]!.hash,
        mac: sealMac(key, { day: DAY1, seq: 4, hash: heads[0]!.hash }),
        created_at: D2 + 5_000,
      },
      {
        day: DAY2,
        seq: 7,
        hash: heads[1]!.hash,
        mac: sealMac(key, { day: DAY2, seq: 7, hash: heads[1]!.hash }),
        created_at: D3 + 5_000,
      },
    ]);
    const publicKey = publicKeyFromPem((await call('/api/v1/audit/public-key')).json.public_key_pem);
    const storeId = (await sql<{ value: string }>(`SELECT value FROM meta WHERE key = 'store_id'`))[0]!.value;
    expect(anchors.map((anchor) => signatureValid(publicKey, anchorSigned(anchor, storeId), anchor.signature))).toEqual(
      [true, true],
    );
  });

  it('verifies', async () => {
    expect(await verify()).toEqual({
      ok: true,
      checked: 10,
      anchors: 2,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
  });
});

describe('tampering, each undone afterwards', () => {
  undoTamperingAfterEach();

  it('an edited entry is reported at its seq', async () => {
    await sql(`UPDATE audit_log SET actor_label = 'someone else' WHERE seq = 6`);
    expect(await verify()).toEqual({
      ok: false,
      checked: 10,
      anchors: 2,
      first_bad_seq: 6,
      missing_anchor: null,
      sealed_twice: null,
    });
  });

  it('edited details are reported at their seq, even when no longer JSON', async () => {
    await sql(`UPDATE audit_log SET details = '{"retention_days":99,"kernel_retention_days":14}' WHERE seq = 2`);
    expect((await verify()).first_bad_seq).toBe(2);
    await sql(`UPDATE audit_log SET details = '{broken' WHERE seq = 2`);
    expect((await verify()).first_bad_seq).toBe(2);
  });

  it('an edited hash is reported at its seq', async () => {
    await sql(`UPDATE audit_log SET hash = ? WHERE seq = 9`, 'f'.repeat(64));
    expect(await verify()).toEqual({
      ok: false,
      checked: 10,
      anchors: 2,
      first_bad_seq: 9,
      missing_anchor: null,
      sealed_twice: null,
    });
  });

  it('a deleted entry in the middle is reported at its seq', async () => {
    await sql('DELETE FROM audit_log WHERE seq = 5');
    expect(await verify()).toEqual({
      ok: false,
      checked: 9,
      anchors: 2,
      first_bad_seq: 5,
      missing_anchor: null,
      sealed_twice: null,
    });
  });

  it('deleting the newest entries of a sealed day breaks the chain and its anchor', async () => {
    await sql('DELETE FROM audit_log WHERE seq IN (6, 7)');
    expect(await verify()).toEqual({
      ok: false,
      checked: 8,
      anchors: 1,
      first_bad_seq: 6,
      missing_anchor: DAY2,
      sealed_twice: null,
    });
  });

  it('truncating the tail into a sealed day is reported at the first missing seq', async () => {
    await sql('DELETE FROM audit_log WHERE seq >= 7');
    expect(await verify()).toEqual({
      ok: false,
      checked: 6,
      anchors: 1,
      first_bad_seq: 7,
      missing_anchor: DAY2,
      sealed_twice: null,
    });
  });

  it('a sealed day truncated together with its anchor still leaves the earlier anchor pointing past the tail', async () => {
    await sql('DELETE FROM audit_log WHERE seq >= 4');
    await sql('DELETE FROM audit_anchor WHERE day = ?', DAY2);
    expect(await verify()).toEqual({
      ok: false,
      checked: 3,
      anchors: 0,
      first_bad_seq: 4,
      missing_anchor: DAY1,
      sealed_twice: null,
    });
  });

  it('a deleted anchor is reported as missing', async () => {
    await sql('DELETE FROM audit_anchor WHERE day = ?', DAY1);
    expect(await verify()).toEqual({
      ok: false,
      checked: 10,
      anchors: 1,
      first_bad_seq: null,
      missing_anchor: DAY1,
      sealed_twice: null,
    });
  });

  it.each([
    // The first hex digit flipped: a fixed prefix would leave one MAC in 256 (random key) unchanged.
    [
      'mac',
      `UPDATE audit_anchor SET mac = (CASE WHEN substr(mac, 1, 1) = '0' THEN '1' ELSE '0' END) || substr(mac, 2) WHERE day = '${DAY2}'`,
    ],
    ['hash', `UPDATE audit_anchor SET hash = '${'a'.repeat(64)}' WHERE day = '${DAY2}'`],
    ['seq', `UPDATE audit_anchor SET seq = 6 WHERE day = '${DAY2}'`],
    ['day', `UPDATE audit_anchor SET day = '2031-05-09' WHERE day = '${DAY2}'`],
  ])('an anchor with an altered %s is not valid', async (_field, statement) => {
    await sql(statement);
    expect(await verify()).toMatchObject({ ok: false, anchors: 1, first_bad_seq: null, missing_anchor: DAY2 });
  });

  it('a day rewritten with freshly computed hashes fails at its anchor', async () => {
    await inStore(({ sql }) => {
      sql.exec(`UPDATE audit_log SET actor_label = 'forged' WHERE seq = 3`);
      const rows = sql.exec('SELECT * FROM audit_log ORDER BY seq').toArray() as unknown as AuditRow[];
      let prev = rows[1]!.hash;
      for (const row of rows.slice(2)) {
        prev = chainHash(prev, entryOf(row));
        sql.exec('UPDATE audit_log SET hash = ? WHERE seq = ?', prev, row.seq);
      }
    });
    expect(await verify()).toEqual({
      ok: false,
      checked: 10,
      anchors: 0,
      first_bad_seq: null,
      missing_anchor: DAY1,
      sealed_twice: null,
    });
  });

  it('entries appended into a sealed day are caught by its anchor', async () => {
    await sql('UPDATE audit_log SET ts = ? WHERE seq = 8', D2 + 23 * 3_600_000);
    expect(await verify()).toMatchObject({ ok: false, first_bad_seq: 8, missing_anchor: DAY2 });
  });

  it('without an audit key nothing is sealed and the first finished day is reported', async () => {
    const result = await inStore(({ storage }) => {
      const db = durableSql(storage);
      const keyless = new AuditProofs(db, { mac: null, signing: null, seals: [] });
      return { due: sealDue(db, keyless, D4), verified: verifyChain(db, keyless, D3 + 1) };
    });
    expect(result).toEqual({
      due: { refused: 'an audit key (audit.key or audit-signing.key) is missing' },
      verified: { ok: false, checked: 10, anchors: 0, first_bad_seq: null, missing_anchor: DAY1, sealed_twice: null },
    });
  });
});

describe('the daily job and the clock', () => {
  it('seals the finished day when nothing was written since', async () => {
    vi.setSystemTime(D4 + 5_000);
    const reports = await runDaily(Date.now());
    expect(reports).toEqual([
      { name: 'audit.seal', ok: true, result: { sealed: [DAY3] } },
      { name: 'audit.retention', ok: true, result: { deleted: 0, checkpoint_seq: null } },
    ]);
    expect(await verify()).toEqual({
      ok: true,
      checked: 10,
      anchors: 3,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
  });

  it('never dates an entry into a sealed day, even when the clock goes back', async () => {
    vi.setSystemTime(D2 + 3_600_000);
    const seq = await auditedWrite(20);
    vi.setSystemTime(D4 + 60_000);
    expect(await sql('SELECT seq, ts FROM audit_log WHERE seq = ?', seq)).toEqual([{ seq: 11, ts: D4 }]);
    expect(await verify()).toEqual({
      ok: true,
      checked: 11,
      anchors: 3,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
  });
});

describe('oversized details', () => {
  it('are kept as a note of their size, and the chain still verifies', async () => {
    await inStore(({ store }) =>
      store.system.record(
        { actor: SYSTEM_ACTOR, source: 'system', request_id: 'big-details', action: 'service.start' },
        'ok',
        { details: { blob: 'b'.repeat(MAX_DETAILS_CHARS) } },
        null,
      ),
    );
    expect(await sql('SELECT details FROM audit_log WHERE request_id = ?', 'big-details')).toEqual([
      { details: JSON.stringify({ truncated: true, chars: MAX_DETAILS_CHARS + 11 }) },
    ]);
    expect(await verify()).toMatchObject({ ok: true, first_bad_seq: null });
  });
});

describe('concurrent writers', () => {
  it('30 parallel changes extend one chain without a fork', async () => {
    const before = (await sql<{ seq: number }>('SELECT max(seq) AS seq FROM audit_log'))[0]!.seq;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('/api/v1/settings/logs', { method: 'PUT', body: { retention_days: 1 + i } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const rows = await sql<{ seq: number; request_id: string }>(
      'SELECT seq, request_id FROM audit_log WHERE seq > ? ORDER BY seq',
      before,
    );
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, i) => before + 1 + i));
    expect(new Set(rows.map((r) => r.request_id))).toEqual(new Set(answers.map((a) => a.headers.get('x-request-id'))));
    expect(await verify()).toEqual({
      ok: true,
      checked: before + 30,
      anchors: 3,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
  });
});
