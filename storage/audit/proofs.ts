import type { AuditSeal } from '../../src/shared/schemas/audit-seal';
import { first, type SqlDb } from '../sql/sql';
import { keyStart } from './key-start';
import { AuditSigner } from './signing';

/** What the audit's proofs rest on, all kept outside the database, in the data root. */
export interface ProofKeys {
  /** `audit.key`: the HMAC key of anchors and the retention checkpoint. */
  mac: Uint8Array | null;
  /** `audit-signing.key`: the Ed25519 private key (seed) that signs anchors and checkpoints. */
  signing: Uint8Array | null;
  /** `audit-seals.jsonl`, every store's lines; null when it could not be read (then nothing is sealed). */
  seals: AuditSeal[] | null;
}

/**
 * The keys and the seal record of one store. The seal record is read once at start and then kept
 * here as the store adds to it, so verify needs no host call and a record changed under a running
 * store changes nothing until the next start.
 */
export class AuditProofs {
  readonly mac: Uint8Array | null;
  readonly signer: AuditSigner | null;
  private seals: AuditSeal[] | null;

  constructor(
    private readonly db: SqlDb,
    keys: ProofKeys,
  ) {
    this.mac = keys.mac;
    this.signer = keys.signing ? new AuditSigner(keys.signing) : null;
    this.seals = keys.seals;
  }

  storeId(): string {
    return first<{ value: string }>(this.db, `SELECT value FROM meta WHERE key = 'store_id'`)!.value;
  }

  /** The first seq written under the signing key (storage/audit/key-start.ts); 1 when nothing valid vouches for a later one. */
  keyStart(): number {
    return keyStart(this.db, this.signer?.publicKey ?? null, this.signer?.keyId ?? null);
  }

  /**
   * The seals of this store's signing key, oldest first; null when the record could not be read.
   * Bound to the key, never to `store_id`: the database holds that, and whoever rewrites it must not
   * make the record look empty. A line without `key_id` was written before lines named their key,
   * by the one store of this data root.
   */
  recorded(): AuditSeal[] | null {
    const keyId = this.signer?.keyId;
    return this.seals?.filter((seal) => (seal.key_id ?? keyId) === keyId) ?? null;
  }

  /** A seal the host has just written and fsync'd. */
  remember(seal: AuditSeal): void {
    this.seals?.push(seal);
  }
}
