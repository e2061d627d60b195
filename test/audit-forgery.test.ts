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

describe('issue 34, finding 2: with the key only the bytes it signed are accepted, by both verifiers', () => {
  /** The head the store signs over the entries up to `lastSeq` now: a real head of an older, shorter export. */
  const headUpTo = async (lastSeq: number) => {
    const [mac, signing] = [await host().keys.read('audit', false), await host().keys.read('audit-signing', false)];
    const seals = await host().seals.read();
    return inStore(({ storage }) => {
      const db = durableSql(storage);
      return exportHead(db, new AuditProofs(db, { mac, signing, seals }), {}, lastSeq, F3 + 11 * HOUR);
    });
  };

  /** Fifty files forged from a real export as a reader of the file can forge them: no key, any text. */
  async function forgeries(real: string): Promise<[string, string][]> {
    const lines = real.trimEnd().split('\n');
    const [entries, headLine] = [lines.slice(0, -1), lines.at(-1)!];
    const rows = () => entries.map((line) => JSON.parse(line) as Record<string, any>);
    const file = (all: string[]) => `${all.join('\n')}\n`;
    const withLine = (index: number, text: string) => file(entries.with(index, text).concat(headLine));
    const withRow = (index: number, change: (row: Record<string, any>) => void) => {
      const row = rows()[index]!;
      change(row);
      return withLine(index, JSON.stringify(row));
    };
    /** Every hash from `index` on recomputed, as anyone can: what the head and the anchors signed no longer matches. */
    const rehashed = (index: number, change: (row: Record<string, any>) => void) => {
      const all = rows();
      change(all[index]!);
      let prev = all[index]!.prev_hash as string;
      for (const row of all.slice(index)) {
        const { hash: _h, prev_hash: _p, anchor: _a, ...entry } = row;
        row.prev_hash = prev;
        row.hash = prev = chainHash(prev, entry as never);
      }
      return all;
    };
    /** A line's text with `key` written once more before the real one (a reader that takes the first sees `first`). */
    const twiceFirst = (line: string, key: string, first: unknown) =>
      `{${JSON.stringify(key)}:${JSON.stringify(first)},${line.slice(1)}`;
    /** The same inside an object of the line that starts with `opening`. */
    const twiceFirstIn = (line: string, opening: string, key: string) =>
      line.replace(opening, `${opening}${JSON.stringify(key)}:"not the store's",`);
    const anchored = rows().findIndex((row) => row.anchor !== undefined);
    const detailed = rows().findIndex((row) => row.details !== null);
    const [middle, lastEntry] = [4, entries.length - 1];
    const head = JSON.parse(headLine).head as ExportHead;
    const oldHead = JSON.stringify({ head: await headUpTo(rows()[lastEntry - 2]!.seq) });
    const sample = entries[middle]!;
    expect([anchored, detailed].every((index) => index >= 0 && index < lastEntry)).toBe(true);

    return [
      // Edits, no hash recomputed.
      ['an actor_label edited', withRow(1, (row) => void (row.actor_label = 'someone else'))],
      ['an action edited', withRow(middle, (row) => void (row.action = 'tokens.revoke'))],
      ['a details value edited', withRow(detailed, (row) => void (row.details = { ...row.details, edited: true }))],
      ['a ts moved by 1 ms', withRow(middle, (row) => void (row.ts += 1))],
      ['a result turned to denied', withRow(middle, (row) => void (row.result = 'denied'))],
      [
        'a hash with one digit changed',
        withRow(middle, (row) => void (row.hash = `${row.hash[0] === 'a' ? 'b' : 'a'}${row.hash.slice(1)}`)),
      ],
      // Edits with the chain recomputed from there.
      [
        'an entry edited and every hash after it recomputed',
        file([...rehashed(1, (row) => void (row.actor_label = 'x')).map((row) => JSON.stringify(row)), headLine]),
      ],
      [
        'the same with the head hash moved to the new end (its signature no longer covers it)',
        file([
          ...rehashed(1, (row) => void (row.actor_label = 'x')).map((row) => JSON.stringify(row)),
          JSON.stringify({ head: { ...head, hash: rehashed(1, (row) => void (row.actor_label = 'x')).at(-1)!.hash } }),
        ]),
      ],
      ['an anchor moved to another day', withRow(anchored, (row) => void (row.anchor.day = '2035-06-30'))],
      // Deletions.
      ['a middle line deleted', file([...entries.toSpliced(middle, 1), headLine])],
      ['the first line deleted', file([...entries.slice(1), headLine])],
      ['the last entry deleted', file([...entries.slice(0, -1), headLine])],
      ['the line carrying an anchor deleted', file([...entries.toSpliced(anchored, 1), headLine])],
      ['the head deleted', file(entries)],
      ['every entry deleted, the head kept', file([headLine])],
      // Splices.
      ['two lines swapped', file([...entries.toSpliced(middle, 2, entries[middle + 1]!, entries[middle]!), headLine])],
      ['a line written twice', file([...entries.toSpliced(middle, 0, sample), headLine])],
      ['the last entry written twice', file([...entries, entries.at(-1)!, headLine])],
      ['the head in the middle', file([...entries.toSpliced(middle, 0, headLine)])],
      ['the entries in reverse', file([...entries.toReversed(), headLine])],
      [
        'an anchor spliced onto a line that ends no day',
        withRow(middle, (row) => void (row.anchor = rows()[anchored]!.anchor)),
      ],
      // Old heads.
      ['every line under the head of an older, shorter export', file([...entries, oldHead])],
      ['the lines of the older export and one more under its head', file([...entries.slice(0, -1), oldHead])],
      ['the lines of the older export under the newer head', file([...entries.slice(0, -2), headLine])],
      ['a head whose ts was moved', file([...entries, JSON.stringify({ head: { ...head, ts: head.ts + 1 } })])],
      // A key twice: the value a first-key reader takes is not the store's.
      [
        "the issue's own: action and actor_label written first as other values",
        withLine(middle, twiceFirst(twiceFirst(sample, 'actor_label', 'owner'), 'action', 'tokens.revoke')),
      ],
      ['seq written twice with its own value', withLine(middle, twiceFirst(sample, 'seq', JSON.parse(sample).seq))],
      ['a hash written first as another', withLine(middle, twiceFirst(sample, 'hash', 'f'.repeat(64)))],
      ['a prev_hash written first as another', withLine(middle, twiceFirst(sample, 'prev_hash', '0'.repeat(64)))],
      [
        'a key twice inside details',
        withLine(detailed, twiceFirstIn(entries[detailed]!, '"details":{', Object.keys(rows()[detailed]!.details)[0]!)),
      ],
      ['a key twice inside an anchor', withLine(anchored, twiceFirstIn(entries[anchored]!, '"anchor":{', 'day'))],
      [
        'a key twice inside the head',
        file([...entries, headLine.replace('{"head":{', `{"head":{"seq":${head.seq! - 1},`)]),
      ],
      [
        'the head written twice in its line',
        file([...entries, `{"head":${oldHead.slice('{"head":'.length, -1)},${headLine.slice(1)}`]),
      ],
      // A key the store does not write.
      ['"approved_by":"owner" after the last key', withLine(middle, `${sample.slice(0, -1)},"approved_by":"owner"}`)],
      ['a key before the first', withLine(middle, `{"approved_by":"owner",${sample.slice(1)}`)],
      ['a key inside details', withRow(detailed, (row) => void (row.details.approved_by = 'owner'))],
      ['a key inside an anchor', withRow(anchored, (row) => void (row.anchor.approved_by = 'owner'))],
      ['a key inside the head', file([...entries, JSON.stringify({ head: { ...head, approved_by: 'owner' } })])],
      ['a key beside the head in its line', file([...entries, `${headLine.slice(0, -1)},"approved_by":"owner"}`])],
      // The same values spelt otherwise.
      ['a space after a colon', withLine(middle, sample.replace('"seq":', '"seq": '))],
      ['a space at the end of a line', withLine(middle, `${sample} `)],
      [
        "an action's first letter written as a \\u escape",
        withLine(
          middle,
          sample.replace(
            /"action":"(.)/,
            (_, c: string) => `"action":"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
          ),
        ),
      ],
      ['a key name written with a \\u escape', withLine(middle, sample.replace('"seq":', '"\\u0073eq":'))],
      ['seq written as 5.0', withLine(middle, sample.replace(/"seq":(\d+)/, '"seq":$1.0'))],
      [
        'ts written with an exponent',
        withLine(
          middle,
          sample.replace(/"ts":(\d+)/, (_, ts: string) => `"ts":${Number(ts) / 1000}e3`),
        ),
      ],
      [
        'keys in another order',
        withLine(middle, JSON.stringify((({ hash, ...rest }) => ({ hash, ...rest }))(JSON.parse(sample)))),
      ],
      ['a line ending in CRLF', withLine(middle, `${sample}\r`)],
      ['a byte-order mark before the first line', `\uFEFF${real}`],
      ['an empty line between two entries', file([...entries.toSpliced(middle, 0, ''), headLine])],
      ['a space inside the head line', file([...entries, headLine.replace('{"head":', '{"head": ')])],
    ];
  }

  it('refuses each of 50 forged files, and accepts the real export and an older genuine one', async () => {
    const [real, pem] = [await jsonlExport(), (await publicKey()).public_key_pem];
    const forged = await forgeries(real);
    expect(forged).toHaveLength(50);
    expect(new Set(forged.map(([, text]) => text)).size).toBe(50);
    const acceptedBy = (check: (text: string) => boolean) =>
      forged.filter(([, text]) => check(text)).map(([name]) => name);
    expect({
      store: acceptedBy((text) => verifyJsonlExport(text, { publicKeyPem: pem }).ok),
      independent: acceptedBy((text) => independentVerify(text, pem) === null),
    }).toEqual({ store: [], independent: [] });

    const lines = real.trimEnd().split('\n');
    const older = `${[...lines.slice(0, -3), JSON.stringify({ head: await headUpTo(JSON.parse(lines.at(-4)!).seq) })].join('\n')}\n`;
    for (const genuine of [real, older]) {
      expect(verifyJsonlExport(genuine, { publicKeyPem: pem })).toMatchObject({ ok: true, signed_head: true });
      expect(independentVerify(genuine, pem)).toBeNull();
    }
  });

  it("names the line of the issue's forgeries, and the head line with a key added is no signed head", async () => {
    const [real, pem] = [await jsonlExport(), (await publicKey()).public_key_pem];
    const lines = real.trimEnd().split('\n');
    const sample = lines[4]!;
    const { seq } = JSON.parse(sample);
    const at = (line: string, index = 4) => `${lines.with(index, line).join('\n')}\n`;
    expect(verifyJsonlExport(at(`${sample.slice(0, -1)},"approved_by":"owner"}`), { publicKeyPem: pem })).toMatchObject(
      {
        ok: false,
        first_bad_line: 5,
        first_bad_seq: seq,
        reason: 'the line is not one the store writes (Unrecognized key: "approved_by")',
      },
    );
    expect(verifyJsonlExport(at(`{"action":"tokens.revoke",${sample.slice(1)}`), { publicKeyPem: pem })).toMatchObject({
      ok: false,
      first_bad_line: 5,
      first_bad_seq: seq,
      reason: expect.stringMatching(/^the line is not written as the store writes it/),
    });
    const headLine = lines.at(-1)!;
    expect(
      verifyJsonlExport(at(`${headLine.slice(0, -2)},"approved_by":"owner"}}`, lines.length - 1), {
        publicKeyPem: pem,
      }),
    ).toMatchObject({ ok: false, signed_head: false, first_bad_line: lines.length });
    // Without the key the file is read as before: the added field is not hashed, the chain holds.
    expect(verifyJsonlExport(at(`${sample.slice(0, -1)},"approved_by":"owner"}`))).toMatchObject({ ok: true });
    // Bytes that are not UTF-8 are refused before anything is read.
    const bytes = new TextEncoder().encode(real);
    bytes[10] = 0xff;
    expect(verifyJsonlExport(bytes, { publicKeyPem: pem })).toMatchObject({
      ok: false,
      reason: 'the file is not UTF-8',
    });
  });
});
