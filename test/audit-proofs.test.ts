import { ed25519 } from '@noble/curves/ed25519.js';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hostClient } from '../src/host/port';
import { toBase64 } from '../src/shared/base64';
import { anchorSigned, sealMac } from '../storage/audit/anchors';
import { canonical } from '../storage/audit/chain';
import type { AuditRow } from '../storage/audit/record';
import { writeKeyStart } from '../storage/audit/key-start';
import { AuditSigner, keyId, publicKeyFromPem, signatureValid } from '../storage/audit/signing';
import { durableSql } from '../storage/sql/durable-sql';
import { checkpointSigned, verifyJsonlExport } from '../storage/audit/verify-export';
import { call, tokenWith } from './support/api';
import {
  auditedWrite,
  checkpoint,
  DAY,
  jsonlExport,
  publicKey,
  rehashFrom,
  runDaily,
  storeId,
  undoTamperingAfterEach,
  verify,
} from './support/audit';
import { independentVerify } from './support/independent-verify.mjs';
import { inStore, sql } from './support/store';

const Q1 = Date.UTC(2033, 2, 1);
const [Q2, Q3, Q4, Q5] = [Q1 + DAY, Q1 + 2 * DAY, Q1 + 3 * DAY, Q1 + 4 * DAY];
const [DAY1, DAY2, DAY3] = ['2033-03-01', '2033-03-02', '2033-03-03'];
const HOUR = 3_600_000;

const seqsOf = async (from: number, to: number) =>
  (await sql<{ seq: number }>('SELECT seq FROM audit_log WHERE ts >= ? AND ts < ? ORDER BY seq', from, to)).map(
    (r) => r.seq,
  );

let days: number[][];

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Q1 + 10 * HOUR);
  await auditedWrite(11);
  await auditedWrite(12);
  // Seqs 1 and 2 become entries of a store from before form 2: hashed in form 1, the chain re-linked,
  // and the key start that the upgrade signed is seq 3.
  await sql('UPDATE audit_log SET v = 1 WHERE seq <= 2');
  await rehashFrom(1);
  const signer = new AuditSigner((await hostClient(env.HOST).keys.read('audit-signing', false))!);
  await inStore(({ storage }) => writeKeyStart(durableSql(storage), signer, 3));
  await auditedWrite(13);
  for (const day of [Q2, Q3]) {
    await runDaily(day + 5_000);
    vi.setSystemTime(day + 10 * HOUR);
    for (let i = 0; i < 3; i++) await auditedWrite(20 + i);
  }
  days = [await seqsOf(Q1, Q2), await seqsOf(Q2, Q3), await seqsOf(Q3, Q4)];
});

afterAll(() => {
  vi.useRealTimers();
});

describe('a chain that began in form 1 and switched to form 2', () => {
  it('verifies, both days sealed with signed anchors and in the seal record', async () => {
    expect(days).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7],
      [8, 9, 10],
    ]);
    expect(await sql('SELECT seq, v FROM audit_log WHERE seq <= 4 ORDER BY seq')).toEqual([
      { seq: 1, v: 1 },
      { seq: 2, v: 1 },
      { seq: 3, v: 2 },
      { seq: 4, v: 2 },
    ]);
    expect(await verify()).toEqual({
      ok: true,
      checked: 10,
      anchors: 2,
      first_bad_seq: null,
      missing_anchor: null,
      sealed_twice: null,
    });
    const id = await storeId();
    const heads = await sql<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_log WHERE seq IN (4, 7) ORDER BY seq',
    );
    const key_id = (await publicKey()).key_id;
    expect(await hostClient(env.HOST).seals.read()).toEqual([
      { key_id, store_id: id, day: DAY1, seq: 4, hash: heads[0]!.hash },
      { key_id, store_id: id, day: DAY2, seq: 7, hash: heads[1]!.hash },
    ]);
  });

  it('hashes form 2 over the 15 spec fields, category and v', async () => {
    const [row] = await sql<AuditRow>('SELECT * FROM audit_log WHERE seq = 5');
    const [prev] = await sql<{ hash: string }>('SELECT hash FROM audit_log WHERE seq = 4');
    const { hash: _h, ...fields } = row!;
    const hashed = { ...fields, details: JSON.parse(row!.details!) };
    const digest = new Uint8Array(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(prev!.hash + canonical(hashed))),
    );
    expect(Object.keys(hashed).sort()).toEqual([
      'action',
      'actor_id',
      'actor_label',
      'actor_type',
      'category',
      'details',
      'entity_id',
      'entity_no',
      'entity_type',
      'error_code',
      'id',
      'request_id',
      'result',
      'seq',
      'source',
      'ts',
      'v',
    ]);
    expect([...digest].map((b) => b.toString(16).padStart(2, '0')).join('')).toBe(row!.hash);
  });
});

describe('the public key and signed checkpoints', () => {
  it('GET /api/v1/audit/public-key answers the Ed25519 key and its id', async () => {
    const key = await publicKey();
    expect(key).toEqual({
      key_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      algorithm: 'Ed25519',
      public_key_pem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
    });
    expect(key.key_id).toBe(keyId(publicKeyFromPem(key.public_key_pem)!));
  });

  it('GET /api/v1/audit/checkpoint signs the head at the time of asking', async () => {
    const head = (
      await sql<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1')
    )[0]!;
    const answer = await checkpoint();
    expect(answer).toEqual({
      store_id: await storeId(),
      seq: head.seq,
      hash: head.hash,
      ts: Date.now(),
      key_id: (await publicKey()).key_id,
      signature: expect.any(String),
    });
    const raw = publicKeyFromPem((await publicKey()).public_key_pem);
    expect(signatureValid(raw, checkpointSigned(answer), answer.signature)).toBe(true);
    expect(signatureValid(raw, checkpointSigned({ ...answer, seq: answer.seq - 1 }), answer.signature)).toBe(false);
  });

  it('both need audit:read', async () => {
    const other = await tokenWith(['profiles:read']);
    for (const path of ['/api/v1/audit/checkpoint', '/api/v1/audit/public-key']) {
      const res = await call(path, { token: other.token });
      expect([res.status, res.json.error.code]).toEqual([403, 'auth.scope_missing']);
    }
  });
});

describe('tampering from the database side, each undone afterwards', () => {
  undoTamperingAfterEach();

  it.each([
    ['id', `'00000000-0000-4000-8000-00000000dead'`],
    ['ts', 'ts + 1'],
    ['actor_type', `'token'`],
    ['actor_id', `'someone'`],
    ['actor_label', `'someone else'`],
    ['source', `'cli'`],
    ['action', `'tokens.create'`],
    ['category', `'profile'`],
    ['entity_type', `'profile'`],
    ['entity_id', `'other'`],
    ['entity_no', '7'],
    ['result', `'error'`],
    ['error_code', `'x.y'`],
    ['details', `'{"retention_days":99}'`],
    ['request_id', `'forged'`],
    ['v', '1'],
    ['v', '3'],
    ['hash', `'${'f'.repeat(64)}'`],
  ])('an edited %s (to %s) is reported at its seq', async (column, value) => {
    await sql(`UPDATE audit_log SET ${column} = ${value} WHERE seq = 5`);
    expect(await verify()).toMatchObject({ ok: false, first_bad_seq: 5 });
  });

  it('an edited category of a form 1 entry is reported at its seq, though form 1 did not hash it', async () => {
    await sql(`UPDATE audit_log SET category = 'profile' WHERE seq = 2`);
    expect(await verify()).toMatchObject({ ok: false, first_bad_seq: 2 });
  });

  it('a form 1 entry after the switch is reported at its seq, even re-hashed', async () => {
    await sql('UPDATE audit_log SET v = 1 WHERE seq = 9');
    await rehashFrom(9);
    expect(await verify()).toMatchObject({ ok: false, first_bad_seq: 9 });
  });

  it('a forged anchor, MACed with audit.key but signed without the signing key, is reported', async () => {
    const mac = (await hostClient(env.HOST).keys.read('audit', false))!;
    const [head] = await sql<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log WHERE seq = 7');
    const anchor = { day: DAY2, seq: 7, hash: head!.hash };
    const otherKey = ed25519.utils.randomSecretKey();
    const forged = toBase64(
      ed25519.sign(new TextEncoder().encode(canonical(anchorSigned(anchor, await storeId()))), otherKey),
    );
    for (const signature of [forged, null]) {
      await sql('DELETE FROM audit_anchor WHERE day = ?', DAY2);
      await sql(
        'INSERT INTO audit_anchor (day, seq, hash, mac, signature, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        anchor.day,
        anchor.seq,
        anchor.hash,
        sealMac(mac, anchor),
        signature,
        Q3,
      );
      expect(await verify()).toMatchObject({ ok: false, anchors: 1, first_bad_seq: null, missing_anchor: DAY2 });
    }
  });

  it('a sealed day cut from the end together with its anchor is caught by the seal record', async () => {
    await sql('DELETE FROM audit_log WHERE seq >= 5');
    await sql('DELETE FROM audit_anchor WHERE day = ?', DAY2);
    expect(await verify()).toEqual({
      ok: false,
      checked: 4,
      anchors: 1,
      first_bad_seq: 5,
      missing_anchor: DAY2,
      sealed_twice: null,
    });
  });

  it('a tail cut of the open day is reported against a checkpoint saved before it', async () => {
    const saved = await checkpoint();
    await sql('DELETE FROM audit_log WHERE seq >= ?', saved.seq - 1);
    const result = verifyJsonlExport(await jsonlExport(), {
      publicKeyPem: (await publicKey()).public_key_pem,
      checkpoint: saved,
    });
    expect(result).toMatchObject({ ok: false, first_bad_seq: saved.seq - 1, checkpoint_seq: saved.seq });
    expect(independentVerify(await jsonlExport(), (await publicKey()).public_key_pem, saved)).toEqual({
      seq: saved.seq - 1,
    });
  });
});

describe('an export verified offline with only public material', () => {
  it('verifies with the store code and with an independent node:crypto script', async () => {
    const [text, key, saved] = [await jsonlExport(), (await publicKey()).public_key_pem, await checkpoint()];
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The store upgraded at seq 3: its head says so, under the signature.
    expect(lines.at(-1).head).toMatchObject({ first_seq: 1, seq: saved.seq, key_start_seq: 3 });
    expect(lines.filter((line) => line.anchor).map((line) => [line.seq, line.anchor.day])).toEqual([
      [4, DAY1],
      [7, DAY2],
    ]);
    expect(verifyJsonlExport(text, { publicKeyPem: key, checkpoint: saved })).toEqual({
      ok: true,
      checked: saved.seq,
      first_bad_seq: null,
      first_bad_line: null,
      reason: null,
      first_seq: 1,
      last_seq: saved.seq,
      gaps: 0,
      anchors: 2,
      missing_anchor: null,
      checkpoint_seq: saved.seq,
      signed_head: true,
    });
    expect(independentVerify(text, key, saved)).toBeNull();
  });

  it('reports an edited category, a dropped anchor and a forged anchor signature as the API does', async () => {
    const [text, key] = [await jsonlExport(), (await publicKey()).public_key_pem];
    const edit = (seq: number, change: (line: Record<string, unknown>) => void) =>
      text
        .trim()
        .split('\n')
        .map((raw) => {
          const line = JSON.parse(raw);
          if (line.seq === seq) change(line);
          return JSON.stringify(line);
        })
        .join('\n');
    const recategorised = edit(5, (line) => (line.category = 'profile'));
    expect(verifyJsonlExport(recategorised, { publicKeyPem: key })).toMatchObject({ ok: false, first_bad_seq: 5 });
    expect(independentVerify(recategorised, key)).toEqual({ seq: 5 });
    expect(
      verifyJsonlExport(
        edit(4, (line) => delete line.anchor),
        { publicKeyPem: key },
      ),
    ).toMatchObject({ ok: false, first_bad_seq: null, missing_anchor: DAY1 });
    const forged = edit(7, (line) => ((line.anchor as { signature: string }).signature = toBase64(new Uint8Array(64))));
    expect(verifyJsonlExport(forged, { publicKeyPem: key })).toMatchObject({
      ok: false,
      anchors: 1,
      missing_anchor: DAY2,
    });
    expect(independentVerify(forged, key)).toEqual({ day: DAY2 });
  });
});

describe('no silent re-sealing', () => {
  it('a deleted newest anchor is not written again when the next day is sealed', async () => {
    await sql('DELETE FROM audit_anchor WHERE day = ?', DAY2);
    expect(await runDaily(Q4 + 5_000)).toContainEqual({ name: 'audit.seal', ok: true, result: { sealed: [DAY3] } });
    expect((await sql<{ day: string }>('SELECT day FROM audit_anchor ORDER BY day')).map((a) => a.day)).toEqual([
      DAY1,
      DAY3,
    ]);
    expect(await verify()).toMatchObject({ ok: false, anchors: 2, first_bad_seq: null, missing_anchor: DAY2 });
  });

  it('history rewritten under deleted anchors is never sealed over at the day rollover', async () => {
    vi.setSystemTime(Q4 + 10 * HOUR);
    await auditedWrite(30);
    await sql('DELETE FROM audit_anchor');
    await sql(`UPDATE audit_log SET actor_label = 'forged' WHERE seq = 5`);
    await rehashFrom(5);
    const reports = await runDaily(Q5 + 5_000);
    expect(reports[0]).toMatchObject({
      name: 'audit.seal',
      ok: true,
      result: { sealed: [], refused: expect.stringContaining(`sealed for ${DAY3}`) },
    });
    expect(await sql('SELECT day FROM audit_anchor')).toEqual([]);
    expect(await verify()).toMatchObject({ ok: false, anchors: 0, first_bad_seq: null, missing_anchor: DAY1 });
  });
});
