import { env } from 'cloudflare:workers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostClient } from '../src/host/port';
import type { AuditSeal } from '../src/shared/schemas/audit-seal';
import { AuditProofs } from '../storage/audit/proofs';
import { verifyChain } from '../storage/audit/verify';
import { verifyJsonlExport } from '../storage/audit/verify-export';
import { durableSql } from '../storage/sql/durable-sql';
import { auditedWrite, DAY, jsonlExport, publicKey, rehashFrom, runDaily, storeId, undoTamperingAfterEach, verify } from './support/audit';
import { inStore, sql } from './support/store';

// Each finding of issue 23 (forged proofs) as the attacker of docs/audit-threat-model.md carried it out.

const F1 = Date.UTC(2035, 6, 1);
const [F2, F3] = [F1 + DAY, F1 + 2 * DAY];
const [DAY1, DAY2] = ['2035-07-01', '2035-07-02'];
const HOUR = 3_600_000;

const host = () => hostClient(env.HOST);
const keyIdOf = async () => (await publicKey()).key_id;
const sealsOfKey = async () => {
  const keyId = await keyIdOf();
  return (await host().seals.read()).filter((seal) => (seal.key_id ?? keyId) === keyId);
};

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  for (const day of [F1, F2, F3]) {
    if (day !== F1) await runDaily(day + 5_000);
    vi.setSystemTime(day + 10 * HOUR);
    for (let i = 0; i < 3; i++) await auditedWrite(10 + i);
  }
});

afterAll(() => {
  vi.useRealTimers();
});

/** The store id is in the database too: put it back after a test that rewrote it. */
function undoStoreIdAfterEach(): void {
  let saved: string;
  beforeEach(async () => {
    saved = await storeId();
  });
  afterEach(async () => {
    await sql(`UPDATE meta SET value = ? WHERE key = 'store_id'`, saved);
  });
}

describe('the chain as written', () => {
  it('has two sealed days, each once in the seal record under the signing key, and verifies', async () => {
    expect((await sealsOfKey()).map((seal) => [seal.day, seal.key_id])).toEqual([[DAY1, await keyIdOf()], [DAY2, await keyIdOf()]]);
    expect(await verify()).toEqual({ ok: true, checked: 10, anchors: 2, first_bad_seq: null, missing_anchor: null, sealed_twice: null });
  });
});

describe('finding 3: the database alone cannot detach the seal record', () => {
  undoTamperingAfterEach();
  undoStoreIdAfterEach();

  it('a new store_id and wiped audit tables: live verify still holds the log to the seal record', async () => {
    await sql(`UPDATE meta SET value = ? WHERE key = 'store_id'`, crypto.randomUUID());
    for (const table of ['audit_log', 'audit_anchor', 'audit_checkpoint']) await sql(`DELETE FROM ${table}`);
    expect(await verify()).toMatchObject({ ok: false, checked: 0, first_bad_seq: 1, missing_anchor: DAY1 });
  });

  it('a day rewritten, re-dated and re-hashed under a new store_id is never sealed again, and nothing verifies it', async () => {
    await inStore(({ sql }) => {
      sql.exec('DELETE FROM audit_log WHERE seq = 5');
      for (const { seq } of sql.exec('SELECT seq FROM audit_log WHERE seq > 5 ORDER BY seq').toArray()) {
        sql.exec('UPDATE audit_log SET seq = ? WHERE seq = ?', (seq as number) - 1, seq);
      }
      // Everything before today moved into yesterday: one finished day left to seal.
      sql.exec('UPDATE audit_log SET ts = ? + seq WHERE ts < ?', F2 + HOUR, F3);
      sql.exec('DELETE FROM audit_anchor');
      sql.exec(`UPDATE meta SET value = ? WHERE key = 'store_id'`, crypto.randomUUID());
    });
    await rehashFrom(1);
    const reports = await runDaily(F3 + 6_000);
    expect(reports[0]).toMatchObject({ name: 'audit.seal', ok: true, result: { sealed: [] } });
    expect((await sealsOfKey()).map((seal) => seal.day)).toEqual([DAY1, DAY2]);
    expect(await sql('SELECT day FROM audit_anchor')).toEqual([]);
    expect(await verify()).toMatchObject({ ok: false, missing_anchor: DAY1 });
    const [text, pem] = [await jsonlExport(), (await publicKey()).public_key_pem];
    expect(verifyJsonlExport(text, { publicKeyPem: pem }).ok).toBe(false);
  });

  it('the host refuses a second seal of a day, and the seal job reports it', async () => {
    const [first] = await sealsOfKey();
    await expect(host().seals.append({ ...first!, seq: first!.seq + 1 })).rejects.toThrow(/409/);
    expect((await sealsOfKey()).map((seal) => seal.day)).toEqual([DAY1, DAY2]);
  });

  it('live verify reports a day the seal record holds twice', async () => {
    const [mac, signing] = [await host().keys.read('audit', false), await host().keys.read('audit-signing', false)];
    const seals = await sealsOfKey();
    const twice: AuditSeal[] = [...seals, { ...seals[1]!, seq: seals[1]!.seq - 1 }];
    const result = await inStore(({ storage }) => {
      const db = durableSql(storage);
      return verifyChain(db, new AuditProofs(db, { mac, signing, seals: twice }), F3 + 11 * HOUR);
    });
    expect(result).toMatchObject({ ok: false, sealed_twice: DAY2 });
  });
});
