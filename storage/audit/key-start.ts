import { first, type SqlDb } from '../sql/sql';
import { signatureValid, type AuditSigner } from './signing';

/**
 * The key start: the first seq written once the store had its signing key (1 for a store created
 * with it; for a store from before signed anchors, its first form 2 entry). Before it, form 1 entries
 * and anchors without a signature are the store's past; from it on, neither is accepted, by live
 * verify or by verify-file (which reads it from the export's signed head).
 *
 * It is kept in `meta` as `{"seq": n, "signature": "…"}`, signed with the signing key over
 * canonical({key_id, key_start_seq}), so that whoever can rewrite the database (even with audit.key)
 * cannot move it to make their own entries look older than the key. It is written and signed once,
 * in the start that migrates the store to it (storage/migrations/006-audit-key-start.ts); one that
 * is missing or whose signature does not verify counts as 1: nothing unsigned is accepted.
 */
export const KEY_START = 'audit_key_start';

const keyStartSigned = (keyId: string, seq: number) => ({ key_id: keyId, key_start_seq: seq });

function stored(db: SqlDb): { seq?: unknown; signature?: unknown } {
  const value = first<{ value: string }>(db, 'SELECT value FROM meta WHERE key = ?', KEY_START)?.value;
  try {
    const parsed: unknown = value === undefined ? null : JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** The store's key start, as its signing key vouches for it; 1 when nothing valid vouches. */
export function keyStart(db: SqlDb, publicKey: Uint8Array | null, keyId: string | null): number {
  const { seq, signature } = stored(db);
  if (!Number.isSafeInteger(seq) || keyId === null || typeof signature !== 'string') return 1;
  return signatureValid(publicKey, keyStartSigned(keyId, seq as number), signature) ? (seq as number) : 1;
}

/** Signs the key start the migration wrote; run only in the start that applied that migration. */
export function signKeyStart(db: SqlDb, signer: AuditSigner): void {
  const { seq } = stored(db);
  if (!Number.isSafeInteger(seq)) return;
  writeKeyStart(db, signer, seq as number);
}

/** Writes a signed key start: the migration's, or a test's store from before signed anchors. */
export function writeKeyStart(db: SqlDb, signer: AuditSigner, seq: number): void {
  const value = JSON.stringify({ seq, signature: signer.sign(keyStartSigned(signer.keyId, seq)) });
  db.run(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    KEY_START,
    value,
  );
}
