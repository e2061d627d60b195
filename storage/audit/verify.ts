import { sha256Hex } from '../../src/shared/crypto';
import { first, type SqlDb } from '../sql/sql';
import { categoryOf } from './actions';
import { anchorSigned, sealMacValid, type Anchor, type Checkpoint } from './anchors';
import { CANONICAL_SQL_COLUMNS, canonicalFromSql, chainHash, GENESIS_HASH, type CanonicalParts } from './chain';
import { dayIndex, dayName } from './days';
import type { AuditProofs } from './proofs';
import { entryOf, type AuditRow } from './record';
import type { AuditVerification } from './schema';
import { signatureValid } from './signing';

/**
 * The work of one store call. Verify is split into calls so that no request holds the store (and
 * under workerd the isolate the Worker shares) for long; each bound is about 10 ms of CPU on a slow
 * machine (an entry costs about 10 µs under workerd, most of it the native hash call). Counts, not
 * time: under workerd the clock does not move while a call runs. Details are the only field whose
 * size varies much (up to MAX_DETAILS_CHARS each), so a slice also ends once its details pass
 * SLICE_DETAILS_CHARS.
 */
const SLICE_ENTRIES = 1000;
const SLICE_DETAILS_CHARS = 250_000;
/** An Ed25519 verification costs about as much as a thousand entries. */
const SLICE_ANCHORS = 5;

/**
 * Where a verify stands between two store calls: everything the one-pass check kept in its loop
 * variables, as plain data that crosses RPC. It holds one line per day with entries (`days`), so
 * about as many as the retention has days.
 */
export interface VerifyCursor {
  /** The checkpoint verify began from; if retention moves it meanwhile, verify starts over. */
  checkpoint: Checkpoint | null;
  /** The head seq when verify began: entries appended during the verify are left to the next one. */
  end: number;
  /** The UTC day of the start: the days before it are the finished ones that must be sealed. */
  today: number;
  firstBad: number | null;
  /** The last entry checked and its hash. */
  seq: number;
  hash: string;
  checked: number;
  /** The key start (storage/audit/key-start.ts): no form 1 entry and no unsigned anchor from this seq on. */
  keyStart: number;
  /** The last entry (seq, hash) of each day seen, in the order first seen. */
  days: [day: number, seq: number, hash: string][];
  /** null while entries are being checked; then the day of the last anchor checked ('' before the first). */
  anchorDay: string | null;
  anchors: number;
  validAnchors: Anchor[];
  /** Finished days without a valid anchor so far. */
  unsealed: number[];
}

export type VerifyStep = { done: false; cursor: VerifyCursor } | { done: true; result: AuditVerification };

/** What verify reads of each entry: the fields its loop needs and the canonical text's parts. */
type VerifyRow = Pick<AuditRow, 'seq' | 'ts' | 'v' | 'hash' | 'category' | 'action'> & CanonicalParts;
const VERIFY_COLUMNS = `seq, ts, v, hash, category, action, ${CANONICAL_SQL_COLUMNS}`;

/**
 * Whether a row is what it was hashed as. Form 1 entries (from before form 2) did not hash their
 * category, so theirs must be the one their action files under; no form 1 entry is at or after the key start.
 * The canonical text comes from SQLite; a row whose hash does not match that way is read whole and
 * checked through canonicalEntry, so every answer is the one canonicalEntry gives.
 */
function rowValid(db: SqlDb, prevHash: string, row: VerifyRow, keyStart: number): boolean {
  if (row.v === 1 && (row.seq >= keyStart || row.category !== categoryOf(row.action))) return false;
  try {
    const text = canonicalFromSql(row);
    if (text !== null && sha256Hex(prevHash + text) === row.hash) return true;
  } catch {
    // details that are no longer JSON: the whole row decides below
  }
  const whole = first<AuditRow>(db, 'SELECT * FROM audit_log WHERE seq = ?', row.seq)!;
  try {
    return chainHash(prevHash, entryOf(whole)) === whole.hash;
  } catch {
    return false; // details that are no longer JSON were edited
  }
}

/**
 * The entries of the next slice: at most SLICE_ENTRIES, and no more once the details before an
 * entry pass SLICE_DETAILS_CHARS (the first entry always counts).
 */
function sliceRows(db: SqlDb, cursor: VerifyCursor): VerifyRow[] {
  const { last } = first<{ last: number | null }>(
    db,
    `SELECT max(seq) AS last FROM (
       SELECT seq, sum(chars) OVER (ORDER BY seq) - chars AS before FROM (
         SELECT seq, coalesce(length(details), 0) AS chars FROM audit_log WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?))
     WHERE before <= ?`,
    cursor.seq,
    cursor.end,
    SLICE_ENTRIES,
    SLICE_DETAILS_CHARS,
  )!;
  return last === null
    ? []
    : db.all<VerifyRow>(
        `SELECT ${VERIFY_COLUMNS} FROM audit_log WHERE seq > ? AND seq <= ? ORDER BY seq`,
        cursor.seq,
        last,
      );
}

type StoredCheckpoint = Checkpoint & { mac: string | null };
const readCheckpoint = (db: SqlDb) =>
  first<StoredCheckpoint>(db, 'SELECT seq, hash, mac FROM audit_checkpoint WHERE id = 1') ?? null;

function start(db: SqlDb, proofs: AuditProofs, now: number, checkpoint: StoredCheckpoint | null): VerifyCursor {
  const base = checkpoint?.seq ?? 0;
  return {
    checkpoint: checkpoint && { seq: checkpoint.seq, hash: checkpoint.hash },
    end: first<{ end: number }>(db, 'SELECT coalesce(max(seq), 0) AS end FROM audit_log')!.end,
    today: dayIndex(now),
    firstBad:
      checkpoint && proofs.mac !== null && !sealMacValid(proofs.mac, checkpoint, checkpoint.mac) ? base + 1 : null,
    seq: base,
    hash: checkpoint?.hash ?? GENESIS_HASH,
    checked: 0,
    keyStart: proofs.keyStart(),
    days: [],
    anchorDay: null,
    anchors: 0,
    validAnchors: [],
    unsealed: [],
  };
}

/** Checks the next slice of entries of the chain; when none are left, notes the finished days to seal. */
function checkEntries(db: SqlDb, cursor: VerifyCursor): void {
  const rows = sliceRows(db, cursor);
  const days = new Map(cursor.days.map(([day, seq, hash]) => [day, { seq, hash }]));
  for (const row of rows) {
    cursor.checked += 1;
    if (cursor.firstBad === null) {
      if (row.seq !== cursor.seq + 1) cursor.firstBad = cursor.seq + 1;
      else if (!rowValid(db, cursor.hash, row, cursor.keyStart)) cursor.firstBad = row.seq;
    }
    cursor.seq = row.seq;
    cursor.hash = row.hash;
    days.set(dayIndex(row.ts), { seq: row.seq, hash: row.hash });
  }
  cursor.days = [...days].map(([day, last]) => [day, last.seq, last.hash]);
  if (rows.length > 0 && cursor.seq < cursor.end) return;
  cursor.anchorDay = '';
  cursor.unsealed = [...days.keys()].filter((day) => day < cursor.today);
}

/** An anchor or seal that vouches for a seq past the last entry: the entries from there on were cut. */
function pastTail(cursor: VerifyCursor, seq: number): void {
  if (seq > cursor.seq) cursor.firstBad = Math.min(cursor.firstBad ?? cursor.seq + 1, cursor.seq + 1);
}

/** Checks the next SLICE_ANCHORS anchors in day order; returns whether any are left. */
function checkAnchors(db: SqlDb, proofs: AuditProofs, cursor: VerifyCursor): boolean {
  const base = cursor.checkpoint?.seq ?? 0;
  if (cursor.anchorDay === '') {
    // Every anchor (also one whose day is no longer a date) vouches for its seq.
    pastTail(
      cursor,
      first<{ seq: number | null }>(db, 'SELECT max(seq) AS seq FROM audit_anchor WHERE seq > ?', base)!.seq ?? 0,
    );
  }
  const anchors = db.all<Anchor & { mac: string; signature: string | null }>(
    'SELECT day, seq, hash, mac, signature FROM audit_anchor WHERE seq > ? AND day > ? ORDER BY day LIMIT ?',
    base,
    cursor.anchorDay!,
    SLICE_ANCHORS,
  );
  const storeId = proofs.storeId();
  const publicKey = proofs.signer?.publicKey ?? null;
  const days = new Map(cursor.days.map(([day, seq, hash]) => [day, { seq, hash }]));
  const unsealed = new Set(cursor.unsealed);
  for (const anchor of anchors) {
    cursor.anchorDay = anchor.day;
    const day = dayIndex(Date.parse(anchor.day));
    if (Number.isNaN(day)) continue; // seals nothing; the day it should have sealed is reported instead
    const last = days.get(day);
    // An anchor of a day that ended before the key start may be unsigned: it was written before the key.
    const legacy = anchor.signature === null && anchor.seq < cursor.keyStart;
    const signed = legacy || signatureValid(publicKey, anchorSigned(anchor, storeId), anchor.signature);
    if (
      signed &&
      sealMacValid(proofs.mac, anchor, anchor.mac) &&
      last?.seq === anchor.seq &&
      last.hash === anchor.hash
    ) {
      cursor.anchors += 1;
      cursor.validAnchors.push({ day: anchor.day, seq: anchor.seq, hash: anchor.hash });
      unsealed.delete(day);
    } else {
      unsealed.add(day);
    }
  }
  cursor.unsealed = [...unsealed];
  return anchors.length === SLICE_ANCHORS;
}

/** The seal record's days must each have a valid anchor of their seq and hash, and be sealed once; then the answer. */
function finish(proofs: AuditProofs, cursor: VerifyCursor): AuditVerification {
  const base = cursor.checkpoint?.seq ?? 0;
  const validAnchors = new Map(cursor.validAnchors.map((anchor) => [anchor.day, anchor]));
  const unsealed = new Set(cursor.unsealed);
  for (const seal of proofs.recorded() ?? []) {
    if (seal.seq <= base) continue; // its entries went with retention
    pastTail(cursor, seal.seq);
    const anchor = validAnchors.get(seal.day);
    if (anchor?.seq !== seal.seq || anchor.hash !== seal.hash) unsealed.add(dayIndex(Date.parse(seal.day)));
  }
  const missing = unsealed.size === 0 ? null : dayName(Math.min(...unsealed));
  const sealedTwice = firstRepeated((proofs.recorded() ?? []).map((seal) => seal.day));
  const firstBad = cursor.firstBad;
  return {
    ok: firstBad === null && missing === null && sealedTwice === null,
    checked: cursor.checked,
    anchors: cursor.anchors,
    first_bad_seq: firstBad,
    missing_anchor: missing,
    sealed_twice: sealedTwice,
  };
}

/** The earliest value that occurs more than once, or null. */
function firstRepeated(values: string[]): string | null {
  const seen = new Set<string>();
  const repeated = values.filter((value) => seen.has(value) || !seen.add(value));
  return repeated.sort()[0] ?? null;
}

/**
 * One slice of verify: pass `null` to begin, then each returned cursor until the answer comes.
 * Together the slices recompute the chain from the retention checkpoint (or genesis) up to the head
 * seq of the start, then check every anchor and the seal record. `first_bad_seq` is the first seq
 * whose row is missing, whose hash does not match, or that an anchor or the seal record vouches for
 * but that is gone (tail truncation); a checkpoint with a bad MAC makes the first entry after it bad.
 * `missing_anchor` is the first finished UTC day with entries (before the day verify began) whose
 * anchor is missing or does not verify, the day of an anchor that does not verify, or a day the seal
 * record holds that has no matching valid anchor. `sealed_twice` is a day the seal record holds two
 * seals of under the store's signing key.
 */
export function verifySlice(db: SqlDb, proofs: AuditProofs, now: number, from: VerifyCursor | null): VerifyStep {
  const checkpoint = readCheckpoint(db);
  const moved =
    from !== null && (from.checkpoint?.seq !== checkpoint?.seq || from.checkpoint?.hash !== checkpoint?.hash);
  const cursor =
    from === null || moved ? start(db, proofs, now, checkpoint) : { ...from, validAnchors: [...from.validAnchors] };
  if (cursor.anchorDay === null) checkEntries(db, cursor);
  else if (!checkAnchors(db, proofs, cursor)) return { done: true, result: finish(proofs, cursor) };
  return { done: false, cursor };
}

/** Every slice in one synchronous go: the answer the route's slices add up to. */
export function verifyChain(db: SqlDb, proofs: AuditProofs, now: number): AuditVerification {
  let step = verifySlice(db, proofs, now, null);
  while (!step.done) step = verifySlice(db, proofs, now, step.cursor);
  return step.result;
}
