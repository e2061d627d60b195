import type { SqlDb } from '../sql/sql';
import { sealMacValid, type Anchor, type Checkpoint } from './anchors';
import { chainHash, GENESIS_HASH } from './chain';
import { dayIndex, dayName } from './days';
import { entryOf, type AuditRow } from './record';
import type { AuditVerification } from './schema';

/** Rows are read in pages so that no single read holds the whole log. */
const PAGE = 1000;

function hashMatches(prevHash: string, row: AuditRow): boolean {
  try {
    return chainHash(prevHash, entryOf(row)) === row.hash;
  } catch {
    return false; // details that are no longer JSON were edited
  }
}

/**
 * Recomputes the chain from the retention checkpoint (or genesis) and checks every anchor.
 * `first_bad_seq` is the first seq whose row is missing, whose hash does not match, or that an anchor
 * vouches for but that is gone (tail truncation); a checkpoint with a bad MAC makes the first entry
 * after it bad. `missing_anchor` is the first finished UTC day with entries (before the day of `now`)
 * whose anchor is missing or does not match, or the first day of an anchor that does not verify.
 */
export function verifyChain(db: SqlDb, key: Uint8Array | null, now: number): AuditVerification {
  const checkpoint = db.all<Checkpoint & { mac: string | null }>('SELECT seq, hash, mac FROM audit_checkpoint WHERE id = 1')[0];
  const base = checkpoint?.seq ?? 0;
  let firstBad: number | null = checkpoint && key !== null && !sealMacValid(key, checkpoint, checkpoint.mac) ? base + 1 : null;
  let headSeq = base;
  let prevHash = checkpoint?.hash ?? GENESIS_HASH;
  let checked = 0;
  const lastOfDay = new Map<number, { seq: number; hash: string }>();
  for (;;) {
    const rows = db.all<AuditRow>('SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?', headSeq, PAGE);
    for (const row of rows) {
      checked += 1;
      if (firstBad === null) {
        if (row.seq !== headSeq + 1) firstBad = headSeq + 1;
        else if (!hashMatches(prevHash, row)) firstBad = row.seq;
      }
      headSeq = row.seq;
      prevHash = row.hash;
      lastOfDay.set(dayIndex(row.ts), { seq: row.seq, hash: row.hash });
    }
    if (rows.length < PAGE) break;
  }

  const today = dayIndex(now);
  const unsealed = new Set([...lastOfDay.keys()].filter((day) => day < today));
  let valid = 0;
  const anchors = db.all<Anchor & { mac: string }>('SELECT day, seq, hash, mac FROM audit_anchor WHERE seq > ? ORDER BY day', base);
  for (const anchor of anchors) {
    if (anchor.seq > headSeq) firstBad = Math.min(firstBad ?? headSeq + 1, headSeq + 1);
    const day = dayIndex(Date.parse(anchor.day));
    if (Number.isNaN(day)) continue; // seals nothing; the day it should have sealed is reported instead
    const last = lastOfDay.get(day);
    if (sealMacValid(key, anchor, anchor.mac) && last?.seq === anchor.seq && last.hash === anchor.hash) {
      valid += 1;
      unsealed.delete(day);
    } else {
      unsealed.add(day);
    }
  }
  const missing = unsealed.size === 0 ? null : dayName(Math.min(...unsealed));
  return { ok: firstBad === null && missing === null, checked, anchors: valid, first_bad_seq: firstBad, missing_anchor: missing };
}
