import { AuditSeal } from '../shared/schemas/audit-seal';

/*
 * The seal record's format, the same wherever it is kept (a file in the data root, an object in a
 * team's bucket): one seal per line, as canonical JSON; a line that is not a seal (a torn last
 * write) is skipped; at most one seal per day and signing key.
 */

/** The seal record's name: the file in the data root, the object under a team's prefix. */
export const SEALS_FILE = 'audit-seals.jsonl';

/** One line: the seal's canonical JSON (keys sorted, no spaces). */
export const sealLine = (seal: AuditSeal) =>
  `${JSON.stringify({ day: seal.day, hash: seal.hash, key_id: seal.key_id, seq: seal.seq, store_id: seal.store_id })}\n`;

/** Whether the record already holds a seal of the seal's day under its key (a line without a key is the data root's one key's). */
export const sealedBefore = (seals: AuditSeal[], seal: AuditSeal) =>
  seals.some((line) => line.day === seal.day && (line.key_id ?? seal.key_id) === seal.key_id);

/** The seals of a record's text, oldest first. */
export function parseSeals(text: string): AuditSeal[] {
  return text.split('\n').flatMap((line) => {
    try {
      const seal = AuditSeal.safeParse(JSON.parse(line));
      return seal.success ? [seal.data] : [];
    } catch {
      return [];
    }
  });
}
