import { z } from 'zod';
import { Base64Out } from '../../src/shared/schemas/base64';
import { UUID } from '../../src/shared/schemas/ids';

/** A chain hash: lower-case hex SHA-256. */
const ChainHash = z.string().regex(/^[0-9a-f]{64}$/);
/** A signing key's id: lower-case hex SHA-256 of its 32 raw public key bytes. */
const KeyId = z.string().regex(/^[0-9a-f]{64}$/);
/** A store's id, made with the store (`crypto.randomUUID()`). */
const StoreId = z.string().regex(UUID);

/** The outcomes an entry records; also the values of the `result` filter. */
export const AuditResult = z.enum(['ok', 'denied', 'error']);
export type AuditResult = z.output<typeof AuditResult>;

/** An audit entry as the spec defines it: exactly the fields that are hashed into the chain. */
export const AuditEntry = z
  .object({
    seq: z.int(),
    id: z.string(),
    ts: z.int(),
    // A string, as the spec has it: entries outlive the actor types of the version that wrote them.
    actor_type: z.string(),
    actor_id: z.string().nullable(),
    actor_label: z.string(),
    source: z.string(),
    action: z.string(),
    entity_type: z.string().nullable(),
    entity_id: z.string().nullable(),
    entity_no: z.int().nullable(),
    result: AuditResult,
    error_code: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    request_id: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.output<typeof AuditEntry>;

/** The anchor of a sealed day, on the export line of the day's last entry (whose seq and hash it seals). */
export const AnchorProof = z
  .object({
    day: z.string(),
    store_id: z.string(),
    /** Base64 Ed25519 over canonical({day, hash, seq, store_id}); null on anchors written before signing began. */
    signature: z.string().nullable(),
  })
  .strict();
export type AnchorProof = z.output<typeof AnchorProof>;

/**
 * An entry with everything its hash covers and its chain links, as the store reads it and the JSONL
 * export writes it: a line of the export holds exactly these keys, in this order
 * (docs/audit-format.md#the-form-of-a-line).
 */
export const AuditRecord = AuditEntry.extend({
  /** The action's filter category; hashed from canonical form 2 on. */
  category: z.string(),
  /** The canonical form the entry was hashed in: 1 (written before signed anchors) or 2. */
  v: z.int(),
  hash: ChainHash,
  /** The hash this entry was chained to (the previous entry's, the checkpoint's or genesis); null if that row is gone. */
  prev_hash: ChainHash.nullable(),
  /** Present on the last entry of a sealed day. */
  anchor: AnchorProof.optional(),
}).strict();
export type AuditRecord = z.output<typeof AuditRecord>;

/** One page of records from the store. */
export const AuditPage = z.object({
  items: z.array(AuditRecord),
  /** The seq to continue from (as before_seq or after_seq), or null when this page is the last. */
  next_seq: z.int().nullable(),
});
export type AuditPage = z.output<typeof AuditPage>;

/**
 * The chain's hashes by seq, oldest first: what a machine that witnessed the team's heads compares
 * them with (docs/teams.md#audit-across-machines). `next_after_seq` continues; null on the last page.
 */
export const AuditHashes = z
  .object({ items: z.array(z.object({ seq: z.int(), hash: ChainHash })), next_after_seq: z.int().nullable() })
  .meta({ id: 'AuditHashes' });
export type AuditHashes = z.output<typeof AuditHashes>;

/** One page of entries as the list answers it: newest first, `next_before_seq` to page onward. */
export const AuditList = z
  .object({ items: z.array(AuditEntry), next_before_seq: z.int().nullable() })
  .meta({ id: 'AuditList' });
export type AuditList = z.output<typeof AuditList>;

export const AuditStats = z.object({ entries: z.int(), oldest_ts: z.int().nullable() });
export type AuditStats = z.output<typeof AuditStats>;

/** The result of recomputing the chain and checking the daily anchors (storage/audit/verify.ts). */
export const AuditVerification = z
  .object({
    ok: z.boolean(),
    /** Entries whose hash was recomputed. */
    checked: z.int(),
    /** Anchors that verified: MAC, seq and hash all match the stored chain. */
    anchors: z.int(),
    first_bad_seq: z.int().nullable(),
    missing_anchor: z.string().nullable(),
    /** The first day the seal record holds more than one seal of under the store's signing key; a day is sealed once. */
    sealed_twice: z.string().nullable(),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.output<typeof AuditVerification>;

/** The signed head of the chain (`GET /api/v1/audit/checkpoint`), a witness can keep to prove later that nothing before it changed. */
export const AuditCheckpoint = z
  .object({
    store_id: StoreId,
    /** The newest entry's seq (0 when the log is empty). */
    seq: z.int(),
    /** The chain hash at `seq`. */
    hash: ChainHash,
    /** When the checkpoint was signed (epoch ms). */
    ts: z.int(),
    /** Hex SHA-256 of the raw 32-byte public key that verifies `signature`. */
    key_id: KeyId,
    /** Base64 Ed25519 signature over the UTF-8 canonical JSON of {hash, seq, store_id, ts}. */
    signature: z.string(),
  })
  .meta({ id: 'AuditCheckpoint' });
export type AuditCheckpoint = z.output<typeof AuditCheckpoint>;

/**
 * The last line of a JSONL export, `{"head": …}`: the file's first and last entry, signed by the
 * store when it exported them, so that offline a file is accepted only up to what the key signed
 * (docs/audit-threat-model.md). `signature` covers canonical({first_seq, hash, key_id, key_start_seq,
 * seq, store_id, ts}); the store does not sign (null, with `refused` saying why) over a history it can
 * tell was rewritten, or without its keys.
 */
export const ExportHead = z
  .object({
    /** The seq of the file's first entry; null for a file without entries. */
    first_seq: z.int().nullable(),
    /** The seq of the file's last entry and its chain hash; null for a file without entries. */
    seq: z.int().nullable(),
    hash: z.string().nullable(),
    /** When the store signed it (epoch ms). */
    ts: z.int(),
    store_id: z.string(),
    /** The signing key's id; null when the store has no signing key. */
    key_id: z.string().nullable(),
    /** The first seq written under the signing key (storage/audit/key-start.ts): no form 1 line and no unsigned anchor from it on. */
    key_start_seq: z.int(),
    signature: z.string().nullable(),
    refused: z.string().nullable(),
  })
  .strict();
export type ExportHead = z.output<typeof ExportHead>;

/** The last line of a JSONL export: the head, and nothing else. */
export const ExportHeadLine = z.object({ head: ExportHead }).strict();

/** The key that verifies anchors and checkpoints (`GET /api/v1/audit/public-key`). */
export const AuditPublicKey = z
  .object({
    key_id: KeyId,
    algorithm: z.literal('Ed25519'),
    /** SPKI PEM, as `openssl pkey -pubout` writes it: nothing before or after it. */
    public_key_pem: z
      .string()
      .regex(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]{1,200}\n-----END PUBLIC KEY-----\n$/),
  })
  .meta({ id: 'AuditPublicKey' });
export type AuditPublicKey = z.output<typeof AuditPublicKey>;

export const ExportFormat = z.enum(['csv', 'jsonl']);
export type ExportFormat = z.output<typeof ExportFormat>;

/** An export file as the export route answers it. */
export const AuditExport = z
  .object({ file_name: z.string(), count: z.int(), content_base64: Base64Out })
  .meta({ id: 'AuditExport' });
export type AuditExport = z.output<typeof AuditExport>;

/** What an export of some filters covers: how many entries match, and the newest seq among them (0 for none). */
export const ExportExtent = z.object({ count: z.int(), last_seq: z.int() });
export type ExportExtent = z.output<typeof ExportExtent>;

/** One page of an export measured in the store: its entries and the bytes of their lines, not the lines. */
export const ExportPageSize = z.object({ count: z.int(), bytes: z.int(), next_seq: z.int().nullable() });
export type ExportPageSize = z.output<typeof ExportPageSize>;

/** The offline check of a JSONL export (storage/audit/verify-export.ts), as `lpa audit verify-file` prints it. */
export const ExportVerification = z.object({
  ok: z.boolean(),
  /** Lines whose hash was recomputed. */
  checked: z.int(),
  /** Seq of the first line whose hash, link or order is wrong; null when all are right. */
  first_bad_seq: z.int().nullable(),
  /** 1-based line number of that line (or of a line that is not an entry at all). */
  first_bad_line: z.int().nullable(),
  reason: z.string().nullable(),
  first_seq: z.int().nullable(),
  last_seq: z.int().nullable(),
  /** Places where seqs jump, as in a filtered export; links across them cannot be checked, so with a public key a gap fails. */
  gaps: z.int(),
  /** Anchors whose signature verified against the public key; null when no public key was given. */
  anchors: z.int().nullable(),
  /** As verify: the first day whose anchor is missing or does not verify; null when none (or no public key was given). */
  missing_anchor: z.string().nullable(),
  /** The seq of the checkpoint the export was checked against; null when none was given. */
  checkpoint_seq: z.int().nullable(),
  /** Whether the file ends with a head the public key verifies; null when no public key was given. */
  signed_head: z.boolean().nullable(),
});
export type ExportVerification = z.output<typeof ExportVerification>;

/** What the retention job removed (storage/audit/retention.ts). */
export const PurgeResult = z.object({
  deleted: z.int(),
  /** The seq the chain now continues from; null when nothing was old enough. */
  checkpoint_seq: z.int().nullable(),
});
export type PurgeResult = z.output<typeof PurgeResult>;
