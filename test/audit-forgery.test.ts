import { env } from 'cloudflare:workers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostClient } from '../src/host/port';
import type { AuditSeal } from '../src/shared/schemas/audit-seal';
import { sealMac } from '../storage/audit/anchors';
import { KEY_START, signKeyStart } from '../storage/audit/key-start';
import { AuditProofs } from '../storage/audit/proofs';
import { AuditSigner } from '../storage/audit/signing';
import { auditKeyStartMigration } from '../storage/migrations/006-audit-key-start';
import { verifyChain } from '../storage/audit/verify';
import { verifyJsonlExport } from '../storage/audit/verify-export';
import { durableSql } from '../storage/sql/durable-sql';
import { auditedWrite, DAY, jsonlExport, publicKey, rehashFrom, runDaily, undoTamperingAfterEach, verify } from './support/audit';
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

/** The store id and the key start are in the database too: put `meta` back after a test that rewrote it. */
function undoMetaAfterEach(): void {
  let saved: { key: string; value: string }[];
  beforeEach(async () => {
    saved = await sql('SELECT key, value FROM meta');
  });
  afterEach(async () => {
    await sql('DELETE FROM meta');
    for (const { key, value } of saved) await sql('INSERT INTO meta (key, value) VALUES (?, ?)', key, value);
  });
}

/** Deletes an entry and closes the gap: the later entries move down one seq. */
const deleteAndRenumber = (seq: number) =>
  inStore(({ sql }) => {
    sql.exec('DELETE FROM audit_log WHERE seq = ?', seq);
    for (const row of sql.exec('SELECT seq FROM audit_log WHERE seq > ? ORDER BY seq', seq).toArray()) {
      sql.exec('UPDATE audit_log SET seq = ? WHERE seq = ?', (row.seq as number) - 1, row.seq);
    }
  });

/** The last entry of each finished day, as an anchor would seal it. */
const dayEnds = async (before: number) =>
  (await sql<{ day: string; seq: number; hash: string }>(
    `SELECT strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS day, max(seq) AS seq, hash FROM audit_log WHERE ts < ? GROUP BY day ORDER BY day`, before,
  ));

/** Live verify as of `now` over the store's own keys and the seal record given (as the attacker rewrote it). */
async function verifyWithRecord(seals: AuditSeal[], now: number) {
  const [mac, signing] = [await host().keys.read('audit', false), await host().keys.read('audit-signing', false)];
  return inStore(({ storage }) => {
    const db = durableSql(storage);
    return verifyChain(db, new AuditProofs(db, { mac, signing, seals }), now);
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
  undoMetaAfterEach();

  it('a new store_id and wiped audit tables: live verify still holds the log to the seal record', async () => {
    await sql(`UPDATE meta SET value = ? WHERE key = 'store_id'`, crypto.randomUUID());
    for (const table of ['audit_log', 'audit_anchor', 'audit_checkpoint']) await sql(`DELETE FROM ${table}`);
    expect(await verify()).toMatchObject({ ok: false, checked: 0, first_bad_seq: 1, missing_anchor: DAY1 });
  });

  it('a day rewritten, re-dated and re-hashed under a new store_id is never sealed again, and nothing verifies it', async () => {
    await deleteAndRenumber(5);
    await inStore(({ sql }) => {
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
    const seals = await sealsOfKey();
    const twice: AuditSeal[] = [...seals, { ...seals[1]!, seq: seals[1]!.seq - 1 }];
    expect(await verifyWithRecord(twice, F3 + 11 * HOUR)).toMatchObject({ ok: false, sealed_twice: DAY2 });
  });
});

describe('finding 4: with audit.key and the seal record but not the signing key, nothing passes as older than the key', () => {
  undoTamperingAfterEach();
  undoMetaAfterEach();

  /** An entry deleted, every row re-hashed as form 1 under a new store_id, anchors MACed but unsigned, the seal record to match. */
  async function forgeAsForm1(): Promise<AuditSeal[]> {
    const mac = (await host().keys.read('audit', false))!;
    const [keyId, newId] = [await keyIdOf(), crypto.randomUUID()];
    await deleteAndRenumber(5);
    await sql('UPDATE audit_log SET v = 1');
    await sql(`UPDATE meta SET value = ? WHERE key = 'store_id'`, newId);
    await rehashFrom(1);
    await sql('DELETE FROM audit_anchor');
    const ends = await dayEnds(F3);
    for (const anchor of ends) {
      await sql('INSERT INTO audit_anchor (day, seq, hash, mac, signature, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
        anchor.day, anchor.seq, anchor.hash, sealMac(mac, anchor), F3);
    }
    return ends.map((anchor) => ({ key_id: keyId, store_id: newId, ...anchor }));
  }

  it('live verify reports the first form 1 entry at or after the key start', async () => {
    const forgedRecord = await forgeAsForm1();
    expect(await verifyWithRecord(forgedRecord, F3 + 11 * HOUR)).toMatchObject({ ok: false, first_bad_seq: 1 });
    expect(await verify()).toMatchObject({ ok: false, first_bad_seq: 1 });
  });

  it('the upgrade migration puts the key start at the first form 2 entry, or at the next seq of a log without one', async () => {
    const signing = (await host().keys.read('audit-signing', false))!;
    const upgrade = (form1Through: number) =>
      inStore(({ storage }) => {
        const db = durableSql(storage);
        db.run('UPDATE audit_log SET v = CASE WHEN seq <= ? THEN 1 ELSE 2 END', form1Through);
        db.run('DELETE FROM meta WHERE key = ?', KEY_START);
        for (const statement of auditKeyStartMigration.statements) db.run(statement);
        signKeyStart(db, new AuditSigner(signing));
        return new AuditProofs(db, { mac: null, signing, seals: [] }).keyStart();
      });
    expect(await upgrade(3)).toBe(4);
    expect(await upgrade(10)).toBe(11);
    expect(await upgrade(0)).toBe(1);
  });

  it('a key start moved later in the database, without the signing key, counts as 1', async () => {
    const forgedRecord = await forgeAsForm1();
    await sql(`UPDATE meta SET value = '{"seq":1000,"signature":null}' WHERE key = 'audit_key_start'`);
    expect(await verifyWithRecord(forgedRecord, F3 + 11 * HOUR)).toMatchObject({ ok: false, first_bad_seq: 1 });
  });
});
