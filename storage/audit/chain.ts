import { sha256Hex } from '../../src/shared/crypto';
import type { AuditEntry } from './schema';

/** The `prev_hash` of the first entry ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The canonical form every entry is written in now. Form 1 (entries written before migration 5)
 * hashed the 15 spec fields; form 2 hashes them, the filter `category` and `v` itself.
 */
export const CHAIN_VERSION = 2;

/** An entry as stored: the spec's fields, its filter category and the canonical form it was hashed in. */
export type StoredEntry = AuditEntry & { category: string; v: number };

/**
 * The canonical form of a value: JSON with object keys sorted at every depth, no white space.
 * Written down in the README so that anyone can re-verify an export offline.
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** The 15 spec fields: all that form 1 hashes. */
const SPEC_FIELDS = [
  'seq', 'id', 'ts', 'actor_type', 'actor_id', 'actor_label', 'source', 'action',
  'entity_type', 'entity_id', 'entity_no', 'result', 'error_code', 'details', 'request_id',
] as const satisfies readonly (keyof AuditEntry)[];

/** The hashed keys of a form in canonical (sorted) order, each with its `"key":` prefix written once. */
const sortedKeys = (fields: readonly (keyof StoredEntry)[]) => [...fields].sort().map((key) => [key, `${JSON.stringify(key)}:`] as const);
const FORM_1 = sortedKeys(SPEC_FIELDS);
/** Form 2 hashes the spec fields plus `category` and `v`. */
const FORM_2 = sortedKeys([...SPEC_FIELDS, 'category', 'v']);

/**
 * canonical() of what an entry's hash covers (form 1 the 15 spec fields, form 2 those plus
 * `category` and `v`), written straight from the entry: the same bytes without building and
 * sorting a new object per entry, which verify does a million times.
 */
export function canonicalEntry(entry: StoredEntry): string {
  let out = '';
  for (const [key, prefix] of entry.v === 1 ? FORM_1 : FORM_2) {
    const value = entry[key];
    if (value !== undefined) out += `${out === '' ? '{' : ','}${prefix}${canonical(value)}`;
  }
  return out === '' ? '{}' : `${out}}`;
}

/** hash = SHA-256 hex of (previous hash in hex, then the canonical hashed fields), as UTF-8. */
export function chainHash(prevHash: string, entry: StoredEntry): string {
  return sha256Hex(prevHash + canonicalEntry(entry));
}
