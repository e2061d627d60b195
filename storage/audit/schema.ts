import { z } from 'zod';

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

/** An entry with its chain links, as the store reads it and the export writes it. */
export const AuditRecord = AuditEntry.extend({
  hash: z.string(),
  /** The hash this entry was chained to (the previous entry's, the checkpoint's or genesis); null if that row is gone. */
  prev_hash: z.string().nullable(),
});
export type AuditRecord = z.output<typeof AuditRecord>;

/** One page of records from the store. */
export const AuditPage = z.object({
  items: z.array(AuditRecord),
  /** The seq to continue from (as before_seq or after_seq), or null when this page is the last. */
  next_seq: z.int().nullable(),
});
export type AuditPage = z.output<typeof AuditPage>;

/** One page of entries as the list answers it: newest first, `next_before_seq` to page onward. */
export const AuditList = z.object({ items: z.array(AuditEntry), next_before_seq: z.int().nullable() });
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
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.output<typeof AuditVerification>;

export const ExportFormat = z.enum(['csv', 'jsonl']);
export type ExportFormat = z.output<typeof ExportFormat>;

/** An export file as the export route answers it. */
export const AuditExport = z.object({ file_name: z.string(), count: z.int(), content_base64: z.string() });
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
  /** Places where seqs jump, as in a filtered export; links across them cannot be checked. */
  gaps: z.int(),
});
export type ExportVerification = z.output<typeof ExportVerification>;

/** What the retention job removed (storage/audit/retention.ts). */
export const PurgeResult = z.object({
  deleted: z.int(),
  /** The seq the chain now continues from; null when nothing was old enough. */
  checkpoint_seq: z.int().nullable(),
});
export type PurgeResult = z.output<typeof PurgeResult>;
