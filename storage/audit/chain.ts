import { sha256Hex } from '../../src/shared/crypto';
import type { AuditEntry } from './schema';

/** The `prev_hash` of the first entry ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The canonical form of an entry: JSON with object keys sorted at every depth, no white space.
 * Written down in the README so that anyone can re-verify an export offline.
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** hash = SHA-256 hex of (previous hash in hex, then the canonical entry), as UTF-8. */
export function chainHash(prevHash: string, entry: AuditEntry): string {
  return sha256Hex(prevHash + canonical(entry));
}
