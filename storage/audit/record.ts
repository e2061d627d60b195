import type { StoredEntry } from './chain';
import type { AuditEntry, AuditRecord, AuditResult } from './schema';

/** A row of audit_log as SQLite returns it. */
export interface AuditRow {
  seq: number;
  id: string;
  ts: number;
  actor_type: string;
  actor_id: string | null;
  actor_label: string;
  source: string;
  action: string;
  category: string;
  entity_type: string | null;
  entity_id: string | null;
  entity_no: number | null;
  result: string;
  error_code: string | null;
  details: string | null;
  request_id: string | null;
  hash: string;
  /** The canonical form it was hashed in (storage/audit/chain.ts). */
  v: number;
}

/** The entry as stored: the spec's fields, its category and hash form; `hashedFields` picks what its hash covers. */
export function entryOf(row: AuditRow): StoredEntry {
  return {
    seq: row.seq,
    id: row.id,
    ts: row.ts,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    actor_label: row.actor_label,
    source: row.source,
    action: row.action,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    entity_no: row.entity_no,
    result: row.result as AuditResult,
    error_code: row.error_code,
    details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
    request_id: row.request_id,
    category: row.category,
    v: row.v,
  };
}

/** The spec's fields of a record, in the spec's order: what the list answers. */
export function withoutLinks({
  hash: _hash,
  prev_hash: _prev,
  category: _category,
  v: _v,
  anchor: _anchor,
  ...entry
}: AuditRecord): AuditEntry {
  return entry;
}
