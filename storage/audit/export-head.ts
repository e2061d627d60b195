import { first, type SqlDb } from '../sql/sql';
import { lastSealRewritten, sealMacValid } from './anchors';
import type { AuditFilters } from './filters';
import type { AuditProofs } from './proofs';
import { whereClause } from './query';
import type { ExportHead } from './schema';

/** What a head's signature covers: everything in it but the signature and the refusal. */
export const headSigned = ({ signature: _signature, refused: _refused, ...signed }: ExportHead) => signed;

/**
 * Why the store will not vouch for the history it exports, or null. Cheap checks against what the
 * database alone cannot change: the keys, the retention checkpoint's MAC, the hash the last recorded
 * seal holds, and the MAC of every anchor in the exported range (so that no anchor written without
 * audit.key is passed on under a signature). The entries themselves are checked by whoever verifies
 * the file.
 */
function refusal(db: SqlDb, proofs: AuditProofs, from: number, to: number): string | null {
  if (proofs.signer === null || proofs.mac === null) return 'an audit key (audit.key or audit-signing.key) is missing';
  const recorded = proofs.recorded();
  if (recorded === null) return 'the seal record could not be read';
  const checkpoint = first<{ seq: number; hash: string; mac: string | null }>(
    db,
    'SELECT seq, hash, mac FROM audit_checkpoint WHERE id = 1',
  );
  if (checkpoint && !sealMacValid(proofs.mac, checkpoint, checkpoint.mac))
    return 'the retention checkpoint does not carry a valid MAC';
  const rewritten = lastSealRewritten(db, recorded);
  if (rewritten) return rewritten;
  const anchors = db.all<{ day: string; seq: number; hash: string; mac: string | null }>(
    'SELECT day, seq, hash, mac FROM audit_anchor WHERE seq >= ? AND seq <= ? ORDER BY seq',
    from,
    to,
  );
  const forged = anchors.find((anchor) => !sealMacValid(proofs.mac, anchor, anchor.mac));
  return forged ? `the anchor of ${forged.day} does not carry a valid MAC` : null;
}

/** The head of an export of `filters` up to `lastSeq`: signed, unless the store cannot vouch for it. */
export function exportHead(
  db: SqlDb,
  proofs: AuditProofs,
  filters: AuditFilters,
  lastSeq: number,
  now: number,
): ExportHead {
  const where = whereClause(db, filters, { before_seq: lastSeq + 1 });
  const firstSeq = where
    ? (first<{ seq: number | null }>(db, `SELECT min(a.seq) AS seq FROM audit_log a ${where.sql}`, ...where.params)
        ?.seq ?? null)
    : null;
  const last =
    firstSeq === null
      ? null
      : first<{ seq: number; hash: string }>(db, 'SELECT seq, hash FROM audit_log WHERE seq = ?', lastSeq);
  const head: ExportHead = {
    first_seq: firstSeq,
    seq: last?.seq ?? null,
    hash: last?.hash ?? null,
    ts: now,
    store_id: proofs.storeId(),
    key_id: proofs.signer?.keyId ?? null,
    key_start_seq: proofs.keyStart(),
    signature: null,
    refused: null,
  };
  head.refused = refusal(db, proofs, firstSeq ?? 0, last?.seq ?? 0);
  if (head.refused === null) head.signature = proofs.signer!.sign(headSigned(head));
  return head;
}
