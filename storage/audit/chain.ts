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
 * Written down in docs/audit-format.md#the-hash-chain so that anyone can re-verify an export offline.
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** The 15 spec fields: all that form 1 hashes. */
const SPEC_FIELDS = [
  'seq',
  'id',
  'ts',
  'actor_type',
  'actor_id',
  'actor_label',
  'source',
  'action',
  'entity_type',
  'entity_id',
  'entity_no',
  'result',
  'error_code',
  'details',
  'request_id',
] as const satisfies readonly (keyof AuditEntry)[];

/** The hashed keys of a form in canonical (sorted) order, each with its `"key":` prefix written once. */
const sortedKeys = (fields: readonly (keyof StoredEntry)[]) =>
  [...fields].sort().map((key) => [key, `${JSON.stringify(key)}:`] as const);
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

/**
 * canonical() of a column's value as SQLite writes it: json_quote gives the JSON of TEXT, INTEGER and
 * NULL values; any other type (REAL, BLOB) gives NULL, so the whole text is NULL and the entry is
 * checked through canonicalEntry instead.
 */
const sqlCanonical = (column: string) =>
  `CASE WHEN typeof(${column}) IN ('text', 'integer', 'null') THEN json_quote(${column}) END`;

/** A form's canonical text as two SQL expressions: before `details` (up to `"details":`) and after it. */
function sqlAroundDetails(form: typeof FORM_2): [before: string, after: string] {
  const at = form.findIndex(([key]) => key === 'details');
  const fields = (part: typeof FORM_2, first: boolean) =>
    part.map(([key, prefix], i) => `'${i === 0 && first ? '' : ','}${prefix}' || ${sqlCanonical(key)}`);
  return [
    ["'{'", ...fields(form.slice(0, at), true), `'${at > 0 ? ',' : ''}${form[at]![1]}'`].join(' || '),
    [...fields(form.slice(at + 1), false), "'}'"].join(' || '),
  ];
}
const SQL_FORM_1 = sqlAroundDetails(FORM_1);
const SQL_FORM_2 = sqlAroundDetails(FORM_2);
/** canonicalEntry's `entry.v === 1`: v reads as the number 1 exactly where SQLite holds the INTEGER 1. */
const isForm1 = `typeof(v) = 'integer' AND v = 1`;

/**
 * Columns of an audit_log query that give canonicalEntry() of the row without reading each field
 * into JavaScript: SQLite writes the text before and after `details`, and `canonicalFromSql` puts
 * canonical(details) between them. Verify reads a million rows this way; a row that SQLite cannot
 * write like canonicalEntry (a NULL part) or whose hash does not match is checked the slow way.
 */
export const CANONICAL_SQL_COLUMNS =
  `CASE WHEN ${isForm1} THEN ${SQL_FORM_1[0]} ELSE ${SQL_FORM_2[0]} END AS canonical_before, details, ` +
  `CASE WHEN ${isForm1} THEN ${SQL_FORM_1[1]} ELSE ${SQL_FORM_2[1]} END AS canonical_after`;

export interface CanonicalParts {
  canonical_before: string | null;
  details: string | null;
  canonical_after: string | null;
}

/**
 * canonicalEntry() of a row read with CANONICAL_SQL_COLUMNS, or null where SQLite could not write it.
 * Where it is not null and its chain hash matches the stored hash, canonicalEntry() of the row is
 * the same text: both texts then equal the text once hashed, field by field (each field is one
 * self-delimiting JSON value, and a JSON value SQLite and JSON.stringify both write denotes the
 * same value, which JSON.stringify writes only one way).
 */
export function canonicalFromSql(row: CanonicalParts): string | null {
  if (row.canonical_before === null || row.canonical_after === null) return null;
  return row.canonical_before + canonical(row.details === null ? null : JSON.parse(row.details)) + row.canonical_after;
}

/** hash = SHA-256 hex of (previous hash in hex, then the canonical hashed fields), as UTF-8. */
export function chainHash(prevHash: string, entry: StoredEntry): string {
  return sha256Hex(prevHash + canonicalEntry(entry));
}
