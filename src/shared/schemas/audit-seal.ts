import { z } from 'zod';

/** A key id: lower-case hex SHA-256 of the 32 raw bytes of an Ed25519 public key. */
export const KeyId = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * One line of the seal record, `<data root>/audit-seals.jsonl`: a day the store decided to seal, with
 * the seq and hash it sealed, written and fsync'd by the host before the anchor commits. It lives
 * outside the database so that deleting anchors from the database can never make the store seal a
 * day again (docs/audit-log.md#daily-anchors-and-the-seal-record, docs/audit-threat-model.md). A line belongs to the signing key that signed its anchor
 * (`key_id`), not to `store_id`, which the database holds and anyone with the database can rewrite;
 * lines written before `key_id` was recorded are the data root's one key's. The record holds at most
 * one line per day and key: the host refuses a second.
 */
export const AuditSeal = z
  .object({
    key_id: KeyId.optional(),
    store_id: z.string().min(1).max(64),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    seq: z.int().min(1),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type AuditSeal = z.output<typeof AuditSeal>;
