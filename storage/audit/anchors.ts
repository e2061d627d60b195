import type { AuditSeal } from '../../src/shared/schemas/audit-seal';
import { hmacHex, timingSafeEqual } from '../../src/shared/crypto';
import { DAY_MS } from '../../src/shared/time';
import { first, type SqlDb } from '../sql/sql';
import { canonical } from './chain';
import { dayIndex, dayName } from './days';
import type { AuditProofs } from './proofs';

export interface Anchor {
  day: string;
  seq: number;
  hash: string;
}

export interface Checkpoint {
  seq: number;
  hash: string;
}

/**
 * The HMAC of an anchor: HMAC-SHA256 under the audit key over canonical({day, hash, seq}). A
 * checkpoint is MACed over canonical({hash, seq}); the missing `day` keeps the two apart.
 */
export function sealMac(key: Uint8Array, sealed: Anchor | Checkpoint): string {
  return hmacHex(
    key,
    canonical(
      'day' in sealed
        ? { day: sealed.day, seq: sealed.seq, hash: sealed.hash }
        : { seq: sealed.seq, hash: sealed.hash },
    ),
  );
}

export function sealMacValid(key: Uint8Array | null, sealed: Anchor | Checkpoint, mac: string | null): boolean {
  return key !== null && mac !== null && timingSafeEqual(sealMac(key, sealed), mac);
}

/** What an anchor's Ed25519 signature covers: canonical({day, hash, seq, store_id}). */
export const anchorSigned = (anchor: Anchor, storeId: string) => ({
  day: anchor.day,
  hash: anchor.hash,
  seq: anchor.seq,
  store_id: storeId,
});

/** The newest anchor; anchors only ever move forward, so it is the one with the latest day. */
export function newestAnchor(db: SqlDb): Anchor | undefined {
  return first<Anchor>(db, 'SELECT day, seq, hash FROM audit_anchor ORDER BY day DESC LIMIT 1');
}

/** The first instant after the newest sealed day: no entry may be dated before it, or it would land in a sealed day. */
export function openFrom(db: SqlDb): number {
  const sealed = Date.parse(newestAnchor(db)?.day ?? '');
  // An unreadable day (a tampered row) must not stop every write; verify reports that anchor.
  return Number.isNaN(sealed) ? 0 : (dayIndex(sealed) + 1) * DAY_MS;
}

/** The last entry of the newest finished day (before the UTC day of `now`) that has entries. */
function newestFinishedDay(db: SqlDb, now: number): Anchor | null {
  const last = first<{ seq: number; ts: number; hash: string }>(
    db,
    'SELECT seq, ts, hash FROM audit_log WHERE ts < ? ORDER BY ts DESC, seq DESC LIMIT 1',
    dayIndex(now) * DAY_MS,
  );
  return last ? { day: dayName(dayIndex(last.ts)), seq: last.seq, hash: last.hash } : null;
}

/** The day to seal now, or why none is sealed; `null` when there is nothing to seal. */
export type SealDue = AuditSeal | { refused: string } | null;

/**
 * Which day may be sealed now. Only the newest finished day that has entries, and only if neither
 * an anchor in the database nor the seal record shows it or a later day sealed: a day that was
 * sealed, or that a later finished day followed, is never sealed (again) over whatever the table
 * holds now; verify reports it as missing_anchor. The chain must still hold the last recorded
 * seal's hash, or the history under it was rewritten, and nothing is signed on top of that.
 */
export function sealDue(db: SqlDb, proofs: AuditProofs, now: number): SealDue {
  if (proofs.mac === null || proofs.signer === null)
    return { refused: 'an audit key (audit.key or audit-signing.key) is missing' };
  const recorded = proofs.recorded();
  if (recorded === null) return { refused: 'the seal record could not be read' };
  const due = newestFinishedDay(db, now);
  if (!due) return null;
  const lastRecorded = recorded.at(-1);
  const newest = [newestAnchor(db)?.day, lastRecorded?.day]
    .filter((day) => day !== undefined)
    .sort()
    .at(-1);
  if (newest !== undefined && newest >= due.day) return null;
  const rewritten = lastSealRewritten(db, recorded);
  if (rewritten) return { refused: rewritten };
  return { key_id: proofs.signer.keyId, store_id: proofs.storeId(), ...due };
}

/**
 * Why the history under the last recorded seal was rewritten, or null: the chain must still hold the
 * hash that seal recorded at its seq (unless retention has moved past it). Nothing is signed on top
 * of a rewritten history: neither a new anchor nor an export's head.
 */
export function lastSealRewritten(db: SqlDb, recorded: AuditSeal[]): string | null {
  const lastRecorded = recorded.at(-1);
  if (!lastRecorded) return null;
  const base = first<{ seq: number }>(db, 'SELECT seq FROM audit_checkpoint WHERE id = 1')?.seq ?? 0;
  const there = first<{ hash: string }>(db, 'SELECT hash FROM audit_log WHERE seq = ?', lastRecorded.seq);
  return lastRecorded.seq > base && there?.hash !== lastRecorded.hash
    ? `the chain no longer holds the hash sealed for ${lastRecorded.day} at seq ${lastRecorded.seq}`
    : null;
}

/**
 * Writes the anchor of a seal that the host has recorded, if the chain still ends that day with the
 * recorded seq and hash and no anchor of that day or a later one exists. Returns whether it did.
 */
export function commitSeal(db: SqlDb, proofs: AuditProofs, seal: AuditSeal, now: number): boolean {
  if (proofs.mac === null || proofs.signer === null) return false;
  const current = newestFinishedDay(db, (dayIndex(Date.parse(seal.day)) + 1) * DAY_MS);
  if (current?.seq !== seal.seq || current.hash !== seal.hash || (newestAnchor(db)?.day ?? '') >= seal.day)
    return false;
  const anchor: Anchor = { day: seal.day, seq: seal.seq, hash: seal.hash };
  db.run(
    'INSERT INTO audit_anchor (day, seq, hash, mac, signature, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    anchor.day,
    anchor.seq,
    anchor.hash,
    sealMac(proofs.mac, anchor),
    proofs.signer.sign(anchorSigned(anchor, seal.store_id)),
    now,
  );
  return true;
}
