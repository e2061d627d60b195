import type { SqlDb } from '../sql/sql';
import { categoryOf } from './actions';
import { anchorSigned, sealMacValid, type Anchor, type Checkpoint } from './anchors';
import { chainHash, GENESIS_HASH } from './chain';
import { dayIndex, dayName } from './days';
import type { AuditProofs } from './proofs';
import { entryOf, type AuditRow } from './record';
import type { AuditVerification } from './schema';
import { signatureValid } from './signing';

/** Rows are read in pages so that no single read holds the whole log. */
const PAGE = 1000;

/**
 * Whether a row is what it was hashed as. Form 1 entries (from before form 2) did not hash their
 * category, so theirs must be the one their action files under; no form 1 entry may follow a form 2 one.
 */
function rowValid(prevHash: string, row: AuditRow, afterSwitch: boolean): boolean {
  if (row.v === 1 && (afterSwitch || row.category !== categoryOf(row.action))) return false;
  try {
    return chainHash(prevHash, entryOf(row)) === row.hash;
  } catch {
    return false; // details that are no longer JSON were edited
  }
}

/**
 * Recomputes the chain from the retention checkpoint (or genesis) and checks every anchor and the
 * seal record. `first_bad_seq` is the first seq whose row is missing, whose hash does not match, or
 * that an anchor or the seal record vouches for but that is gone (tail truncation); a checkpoint with
 * a bad MAC makes the first entry after it bad. `missing_anchor` is the first finished UTC day with
 * entries (before the day of `now`) whose anchor is missing or does not verify, the day of an anchor
 * that does not verify, or a day the seal record holds that has no matching valid anchor.
 */
export function verifyChain(db: SqlDb, proofs: AuditProofs, now: number): AuditVerification {
  const checkpoint = db.all<Checkpoint & { mac: string | null }>('SELECT seq, hash, mac FROM audit_checkpoint WHERE id = 1')[0];
  const base = checkpoint?.seq ?? 0;
  let firstBad: number | null = checkpoint && proofs.mac !== null && !sealMacValid(proofs.mac, checkpoint, checkpoint.mac) ? base + 1 : null;
  let headSeq = base;
  let prevHash = checkpoint?.hash ?? GENESIS_HASH;
  let checked = 0;
  /** The day of the first form 2 entry: anchors from that day on were written signed. */
  let switchDay: number | null = null;
  const lastOfDay = new Map<number, { seq: number; hash: string }>();
  for (;;) {
    const rows = db.all<AuditRow>('SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?', headSeq, PAGE);
    for (const row of rows) {
      checked += 1;
      if (firstBad === null) {
        if (row.seq !== headSeq + 1) firstBad = headSeq + 1;
        else if (!rowValid(prevHash, row, switchDay !== null)) firstBad = row.seq;
      }
      if (switchDay === null && row.v !== 1) switchDay = dayIndex(row.ts);
      headSeq = row.seq;
      prevHash = row.hash;
      lastOfDay.set(dayIndex(row.ts), { seq: row.seq, hash: row.hash });
    }
    if (rows.length < PAGE) break;
  }

  const storeId = proofs.storeId();
  const publicKey = proofs.signer?.publicKey ?? null;
  const today = dayIndex(now);
  const unsealed = new Set([...lastOfDay.keys()].filter((day) => day < today));
  const pastTail = (seq: number) => {
    if (seq > headSeq) firstBad = Math.min(firstBad ?? headSeq + 1, headSeq + 1);
  };
  let valid = 0;
  const validAnchors = new Map<string, Anchor>();
  const anchors = db.all<Anchor & { mac: string; signature: string | null }>(
    'SELECT day, seq, hash, mac, signature FROM audit_anchor WHERE seq > ? ORDER BY day', base,
  );
  for (const anchor of anchors) {
    pastTail(anchor.seq);
    const day = dayIndex(Date.parse(anchor.day));
    if (Number.isNaN(day)) continue; // seals nothing; the day it should have sealed is reported instead
    const last = lastOfDay.get(day);
    const legacy = anchor.signature === null && (switchDay === null || day < switchDay);
    const signed = legacy || signatureValid(publicKey, anchorSigned(anchor, storeId), anchor.signature);
    if (signed && sealMacValid(proofs.mac, anchor, anchor.mac) && last?.seq === anchor.seq && last.hash === anchor.hash) {
      valid += 1;
      validAnchors.set(anchor.day, anchor);
      unsealed.delete(day);
    } else {
      unsealed.add(day);
    }
  }
  for (const seal of proofs.recorded() ?? []) {
    if (seal.seq <= base) continue; // its entries went with retention
    pastTail(seal.seq);
    const anchor = validAnchors.get(seal.day);
    if (anchor?.seq !== seal.seq || anchor.hash !== seal.hash) unsealed.add(dayIndex(Date.parse(seal.day)));
  }
  const missing = unsealed.size === 0 ? null : dayName(Math.min(...unsealed));
  return { ok: firstBad === null && missing === null, checked, anchors: valid, first_bad_seq: firstBad, missing_anchor: missing };
}
