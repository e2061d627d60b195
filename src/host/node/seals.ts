import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseSeals, sealedBefore, sealLine, SEALS_FILE } from '../seal-record';
import type { AuditSeal } from '../../shared/schemas/audit-seal';
import { HostRefusal, type HostPort } from '../port';

function readSeals(path: string): AuditSeal[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseSeals(text);
}

/**
 * The audit's seal record: an append-only file of the days the store sealed. A seal is appended with
 * O_APPEND and fsync'd (the file, and the folder when the file is new) before the store commits the
 * anchor, so a seal the store acted on is on disk first. A second seal of a day under one key is
 * refused (a HostRefusal, 400 on the wire); the check and the append run synchronously, so two posts cannot both pass it.
 */
export function nodeSeals(dataRoot: string): HostPort['seals'] {
  const path = join(dataRoot, SEALS_FILE);
  return {
    read: async () => readSeals(path),
    async append(seal) {
      // A day is sealed once: a second seal would sign a rewritten day over the first.
      if (sealedBefore(readSeals(path), seal)) throw new HostRefusal(`${seal.day} is already sealed`);
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
