import { env } from 'cloudflare:workers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostClient } from '../src/host/port';
import type { AuditSeal } from '../src/shared/schemas/audit-seal';
import { anchorSigned, sealMac } from '../storage/audit/anchors';
import { KEY_START, signKeyStart } from '../storage/audit/key-start';
import { categoryOf } from '../storage/audit/actions';
import { chainHash, GENESIS_HASH } from '../storage/audit/chain';
import { exportHead, headSigned } from '../storage/audit/export-head';
import type { ExportHead } from '../storage/audit/schema';
import { AuditProofs } from '../storage/audit/proofs';
import { AuditSigner } from '../storage/audit/signing';
import { auditKeyStartMigration } from '../storage/migrations/006-audit-key-start';
import { verifyChain } from '../storage/audit/verify';
import { verifyJsonlExport } from '../storage/audit/verify-export';
import { durableSql } from '../storage/sql/durable-sql';
import {
  auditedWrite,
  checkpoint,
  DAY,
  jsonlExport,
  publicKey,
  rehashFrom,
  runDaily,
  undoTamperingAfterEach,
  verify,
} from './support/audit';
import { independentVerify } from './support/independent-verify.mjs';
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
  await sql<{ day: string; seq: number; hash: string }>(
    `SELECT strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS day, max(seq) AS seq, hash FROM audit_log WHERE ts < ? GROUP BY day ORDER BY day`,
    before,
  );

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
    expect((await sealsOfKey()).map((seal) => [seal.day, seal.key_id])).toEqual([
      [DAY1, await keyIdOf()],
      [DAY2, await keyIdOf()],
    ]);
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
    expect(independentVerify(text, pem)).not.toBeNull();
  });

  it('the host refuses a second seal of a day', async () => {
    const [first] = await sealsOfKey();
    await expect(host().seals.append({ ...first!, seq: first!.seq + 1 })).rejects.toThrow(/already sealed/);
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
      await sql(
        'INSERT INTO audit_anchor (day, seq, hash, mac, signature, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
        anchor.day,
        anchor.seq,
        anchor.hash,
        sealMac(mac, anchor),
        F3,
      );
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

  it('verify-file refuses the forged file even under a head signed over the rewritten seal record', async () => {
    const forgedRecord = await forgeAsForm1();
    const [pem, lines] = [(await publicKey()).public_key_pem, (await jsonlExport()).trimEnd().split('\n').slice(0, -1)];
    const [mac, signing] = [await host().keys.read('audit', false), await host().keys.read('audit-signing', false)];
    const head = await inStore(({ storage }) => {
      const db = durableSql(storage);
      return exportHead(
        db,
        new AuditProofs(db, { mac, signing, seals: forgedRecord }),
        {},
        JSON.parse(lines.at(-1)!).seq,
        F3 + 11 * HOUR,
      );
    });
    expect(head).toMatchObject({ key_start_seq: 1, signature: expect.any(String) });
    const text = [...lines, JSON.stringify({ head })].join('\n');
    expect(verifyJsonlExport(text, { publicKeyPem: pem })).toMatchObject({
      ok: false,
      first_bad_seq: 1,
      reason: 'a form 1 entry at or after the key start',
    });
    expect(independentVerify(text, pem)).toEqual({ seq: 1 });
  });

  it('a key start moved later in the database, without the signing key, counts as 1', async () => {
    const forgedRecord = await forgeAsForm1();
    await sql(`UPDATE meta SET value = '{"seq":1000,"signature":null}' WHERE key = 'audit_key_start'`);
    expect(await verifyWithRecord(forgedRecord, F3 + 11 * HOUR)).toMatchObject({ ok: false, first_bad_seq: 1 });
  });
});

/** A line of a JSONL export, as a forger writes one: any fields, chained with plain SHA-256. */
function forgedLines(
  count: number,
  prev: string,
  firstSeq: number,
  firstTs: number,
  spacing: number,
  form: 1 | 2,
): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const entry = {
      seq: firstSeq + i,
      id: crypto.randomUUID(),
      ts: firstTs + i * spacing,
      actor_type: 'admin',
      actor_id: null,
      actor_label: 'admin',
      source: 'api',
      action: 'settings.logs_write',
      entity_type: null,
      entity_id: null,
      entity_no: null,
      result: 'ok' as const,
      error_code: null,
      details: null,
      request_id: null,
      ...(form === 2 && { category: categoryOf('settings.logs_write'), v: 2 }),
    };
    const hash = chainHash(prev, { ...entry, category: entry.category ?? categoryOf(entry.action), v: form });
    lines.push(JSON.stringify({ ...entry, hash, prev_hash: prev }));
    prev = hash;
  }
  return lines;
}

/** Every line of a real export but those whose seq `drop` names, the head kept. */
const without = (text: string, drop: (seq: number) => boolean) =>
  text
    .trimEnd()
    .split('\n')
    .filter((line) => {
      const { seq } = JSON.parse(line) as { seq?: number };
      return seq === undefined || !drop(seq);
    })
    .join('\n');

describe('finding 1: a file made up from nothing is not accepted with the public key', () => {
  it('three form 1 lines over three days, chained from genesis, no anchors, no head', async () => {
    const pem = (await publicKey()).public_key_pem;
    const forged = forgedLines(3, GENESIS_HASH, 1, F1, DAY, 1).join('\n');
    expect(verifyJsonlExport(forged)).toMatchObject({ ok: true, checked: 3 });
    expect(verifyJsonlExport(forged, { publicKeyPem: pem })).toMatchObject({ ok: false, signed_head: false });
    expect(independentVerify(forged, pem)).toEqual({ head: 'missing' });
  });

  it('the same lines under a head copied from a real export', async () => {
    const pem = (await publicKey()).public_key_pem;
    const realHead = (await jsonlExport()).trimEnd().split('\n').at(-1)!;
    for (const form of [1, 2] as const) {
      const forged = [...forgedLines(10, GENESIS_HASH, 1, F1 + HOUR, HOUR, form), realHead].join('\n');
      expect(verifyJsonlExport(forged, { publicKeyPem: pem })).toMatchObject({ ok: false, signed_head: true });
      expect(independentVerify(forged, pem)).not.toBeNull();
    }
  });

  it('a made-up continuation after a saved checkpoint', async () => {
    const pem = (await publicKey()).public_key_pem;
    const saved = await checkpoint();
    const forged = forgedLines(3, saved.hash, saved.seq + 1, saved.ts + 1, 1, 2).join('\n');
    expect(verifyJsonlExport(forged, { publicKeyPem: pem, checkpoint: saved })).toMatchObject({
      ok: false,
      signed_head: false,
    });
    expect(independentVerify(forged, pem, saved)).toEqual({ head: 'missing' });
  });

  it('an export made before signed heads (its head line removed) is not accepted with the key, and still checks without it', async () => {
    const pem = (await publicKey()).public_key_pem;
    const old = (await jsonlExport()).trimEnd().split('\n').slice(0, -1).join('\n');
    expect(verifyJsonlExport(old)).toMatchObject({ ok: true, signed_head: null });
    expect(verifyJsonlExport(old, { publicKeyPem: pem })).toMatchObject({
      ok: false,
      anchors: 2,
      missing_anchor: null,
      signed_head: false,
    });
  });

  it('the real export is accepted by both verifiers', async () => {
    const [text, pem] = [await jsonlExport(), (await publicKey()).public_key_pem];
    expect(verifyJsonlExport(text, { publicKeyPem: pem })).toMatchObject({
      ok: true,
      anchors: 2,
      gaps: 0,
      signed_head: true,
    });
    expect(independentVerify(text, pem)).toBeNull();
  });
});

describe('finding 2: lines deleted from an export are found', () => {
  const GAP = 'seqs jump: entries are missing (an export filtered other than by time cannot be proven)';
  const ENDS = 'the file does not begin and end where its signed head says';
  it.each([
    ['the last entry of a sealed day, which carries its anchor', (seq: number) => seq === 4, 4, GAP],
    ['a middle line', (seq: number) => seq === 6, 6, GAP],
    ['the first line', (seq: number) => seq === 1, 1, ENDS],
    ['the last line', (seq: number) => seq === 10, 10, ENDS],
  ])('%s', async (_, drop, bad, reason) => {
    const [text, pem] = [await jsonlExport(), (await publicKey()).public_key_pem];
    const cut = without(text, drop);
    expect(verifyJsonlExport(cut, { publicKeyPem: pem })).toMatchObject({ ok: false, first_bad_seq: bad, reason });
    expect(independentVerify(cut, pem)).not.toBeNull();
  });
});

describe('the store signs no head over what it can tell was forged', () => {
  undoTamperingAfterEach();

  it('an anchor without a valid MAC (written without audit.key) leaves the head unsigned, and verify-file refuses the file', async () => {
    await sql(`UPDATE audit_anchor SET mac = ? WHERE day = ?`, 'f'.repeat(64), DAY1);
    const [text, pem] = [await jsonlExport(), (await publicKey()).public_key_pem];
    expect(JSON.parse(text.trimEnd().split('\n').at(-1)!).head).toMatchObject({
      signature: null,
      refused: `the anchor of ${DAY1} does not carry a valid MAC`,
    });
    expect(verifyJsonlExport(text, { publicKeyPem: pem })).toMatchObject({
      ok: false,
      signed_head: false,
      reason: expect.stringContaining('did not sign'),
    });
    expect(independentVerify(text, pem)).toEqual({ head: 'signature' });
  });
});

describe('with the signing key itself, only a checkpoint a witness kept holds', () => {
  it('an entry before the checkpoint rewritten, every hash, anchor and the head signed again: accepted by the key, refused against the checkpoint', async () => {
    const signer = new AuditSigner((await host().keys.read('audit-signing', false))!);
    const [saved, pem] = [await checkpoint(), (await publicKey()).public_key_pem];
    const rows = (await jsonlExport())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const head = rows.pop().head as ExportHead;
    let prev = GENESIS_HASH;
    for (const row of rows) {
      if (row.seq === 2) row.actor_label = 'someone else';
      const { hash: _h, prev_hash: _p, anchor, ...entry } = row;
      row.prev_hash = prev;
      row.hash = prev = chainHash(prev, entry);
      if (anchor)
        anchor.signature = signer.sign(
          anchorSigned({ day: anchor.day, seq: row.seq, hash: row.hash }, anchor.store_id),
        );
    }
    const resigned = { ...head, hash: prev };
    const forged = [
      ...rows.map((row) => JSON.stringify(row)),
      JSON.stringify({ head: { ...resigned, signature: signer.sign(headSigned(resigned)) } }),
    ].join('\n');
    expect(verifyJsonlExport(forged, { publicKeyPem: pem })).toMatchObject({ ok: true, anchors: 2, signed_head: true });
    expect(verifyJsonlExport(forged, { publicKeyPem: pem, checkpoint: saved })).toMatchObject({
      ok: false,
      first_bad_seq: saved.seq,
    });
    expect(independentVerify(forged, pem, saved)).toEqual({ seq: saved.seq });
  });
});
