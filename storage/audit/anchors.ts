import { hmacHex, timingSafeEqual } from '../../src/shared/crypto';
import { first, type SqlDb } from '../sql/sql';
import { canonical } from './chain';
import { DAY_MS } from '../../src/shared/time';
import { dayIndex, dayName } from './days';

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
  return hmacHex(key, canonical('day' in sealed ? { day: sealed.day, seq: sealed.seq, hash: sealed.hash } : { seq: sealed.seq, hash: sealed.hash }));
}

export function sealMacValid(key: Uint8Array | null, sealed: Anchor | Checkpoint, mac: string | null): boolean {
  return key !== null && mac !== null && timingSafeEqual(sealMac(key, sealed), mac);
}

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

/**
 * Seals every day before `todayStart` that has entries after the newest anchor, newest day first.
 * Only entries after the newest anchor are sealed: a deleted older anchor is never re-created over
 * what may since have been altered, so verify keeps reporting it. Without an audit key nothing is
 * sealed (and verify reports the first unsealed day). Returns the days sealed.
 */
export function sealFinishedDays(db: SqlDb, key: Uint8Array | null, todayStart: number, now: number): string[] {
  if (key === null) return [];
  const after = newestAnchor(db)?.seq ?? 0;
  const sealed: string[] = [];
  let bound = todayStart;
  for (;;) {
    const last = first<{ seq: number; ts: number; hash: string }>(
      db, 'SELECT seq, ts, hash FROM audit_log WHERE ts < ? AND seq > ? ORDER BY ts DESC, seq DESC LIMIT 1', bound, after,
    );
    if (!last) break;
    const index = dayIndex(last.ts);
    const anchor: Anchor = { day: dayName(index), seq: last.seq, hash: last.hash };
    const written = db.run(
      'INSERT OR IGNORE INTO audit_anchor (day, seq, hash, mac, created_at) VALUES (?, ?, ?, ?, ?)',
      anchor.day, anchor.seq, anchor.hash, sealMac(key, anchor), now,
    );
    if (written === 0) break;
    sealed.push(anchor.day);
    bound = index * DAY_MS;
  }
  return sealed;
}
