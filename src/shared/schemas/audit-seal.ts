import { z } from 'zod';

/**
 * One line of the seal record, `<data root>/audit-seals.jsonl`: a day the store decided to seal, with
 * the seq and hash it sealed, written and fsync'd by the host before the anchor commits. It lives
 * outside the database so that deleting anchors from the database can never make the store seal a
 * day again (docs/audit-log.md#daily-anchors-and-the-seal-record).
 */
export const AuditSeal = z
  .object({
    store_id: z.string().min(1).max(64),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    seq: z.int().min(1),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type AuditSeal = z.output<typeof AuditSeal>;
