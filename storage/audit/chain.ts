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

/** What of an entry its hash covers: form 1 the 15 spec fields, form 2 those plus `category` and `v`. */
export function hashedFields(entry: StoredEntry): Record<string, unknown> {
  const { category, v, ...spec } = entry;
  const fields: AuditEntry = {
    seq: spec.seq, id: spec.id, ts: spec.ts, actor_type: spec.actor_type, actor_id: spec.actor_id, actor_label: spec.actor_label,
    source: spec.source, action: spec.action, entity_type: spec.entity_type, entity_id: spec.entity_id, entity_no: spec.entity_no,
    result: spec.result, error_code: spec.error_code, details: spec.details, request_id: spec.request_id,
  };
  return v === 1 ? fields : { ...fields, category, v };
}

/** hash = SHA-256 hex of (previous hash in hex, then the canonical hashed fields), as UTF-8. */
export function chainHash(prevHash: string, entry: StoredEntry): string {
  return sha256Hex(prevHash + canonical(hashedFields(entry)));
}
