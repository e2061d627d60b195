import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AuditSeal } from '../../shared/schemas/audit-seal';
import type { HostPort } from '../port';

/** The seal record's file in the data root, beside the keys. */
export const SEALS_FILE = 'audit-seals.jsonl';

/** One line: the seal's canonical JSON (keys sorted, no spaces). */
const sealLine = (seal: AuditSeal) =>
  `${JSON.stringify({ day: seal.day, hash: seal.hash, seq: seal.seq, store_id: seal.store_id })}\n`;

function readSeals(path: string): AuditSeal[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text.split('\n').flatMap((line) => {
    try {
      const seal = AuditSeal.safeParse(JSON.parse(line));
      return seal.success ? [seal.data] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The audit's seal record: an append-only file of the days the store sealed. A seal is appended with
 * O_APPEND and fsync'd (the file, and the folder when the file is new) before the store commits the
 * anchor, so a seal the store acted on is on disk first.
 */
export function nodeSeals(dataRoot: string): HostPort['seals'] {
  const path = join(dataRoot, SEALS_FILE);
  return {
    read: async () => readSeals(path),
    async append(seal) {
      const fd = openSync(path, 'a', 0o600);
      try {
        writeSync(fd, sealLine(seal));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      const dir = openSync(dataRoot, 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    },
  };
}
