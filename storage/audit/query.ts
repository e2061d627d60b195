import { first, type SqlDb, type SqlValue } from '../sql/sql';
import type { AuditFilters } from './filters';

/** Where a page starts: before a seq (newest first, the list) or after one (oldest first, the export). */
export type PageStart = { before_seq?: number; after_seq?: number };

export interface WhereClause {
  sql: string;
  params: SqlValue[];
}

const EXACT = ['category', 'action', 'source', 'actor_type', 'entity_id', 'entity_no', 'result'] as const;

/** The columns `search` looks in: everything textual except the hash, one line each. */
const SEARCHED = [
  'action',
  'actor_label',
  'actor_id',
  'source',
  'entity_type',
  'entity_id',
  'error_code',
  'request_id',
  'id',
  'details',
]
  .map((column) => `coalesce(a.${column}, '')`)
  .join(' || char(10) || ');

/**
 * The WHERE clause over `audit_log a` for filters and a page start, or null when nothing can match.
 * Every exact filter has an index ending in seq. `from`/`to` become a seq range through the ts index:
 * ts never decreases along the chain (AuditLog.append), so the range is exact and the walk stays on
 * the primary key. `search` is a case-insensitive (ASCII) substring test over the text columns; it is
 * the one filter that reads rows, within whatever the other filters and the page limit leave.
 */
export function whereClause(db: SqlDb, filters: AuditFilters, start: PageStart = {}): WhereClause | null {
  const terms: string[] = [];
  const params: SqlValue[] = [];
  const add = (term: string, value: SqlValue) => {
    terms.push(term);
    params.push(value);
  };
  for (const name of EXACT) {
    const value = filters[name];
    if (value !== undefined) add(`a.${name} = ?`, value);
  }
  let lowSeq = start.after_seq ?? 0;
  let highSeq = start.before_seq ?? Number.MAX_SAFE_INTEGER;
  if (filters.from !== undefined) {
    const row = first<{ seq: number }>(
      db,
      'SELECT seq FROM audit_log WHERE ts >= ? ORDER BY ts, seq LIMIT 1',
      filters.from,
    );
    if (!row) return null;
    lowSeq = Math.max(lowSeq, row.seq - 1);
  }
  if (filters.to !== undefined) {
    const row = first<{ seq: number }>(
      db,
      'SELECT seq FROM audit_log WHERE ts <= ? ORDER BY ts DESC, seq DESC LIMIT 1',
      filters.to,
    );
    if (!row) return null;
    highSeq = Math.min(highSeq, row.seq + 1);
  }
  if (lowSeq > 0) add('a.seq > ?', lowSeq);
  if (highSeq < Number.MAX_SAFE_INTEGER) add('a.seq < ?', highSeq);
  if (filters.search !== undefined) add(`instr(lower(${SEARCHED}), lower(?)) > 0`, filters.search);
  return { sql: terms.length === 0 ? '' : `WHERE ${terms.join(' AND ')}`, params };
}

/**
 * One page of rows with the hash each links to and, on the last entry of a sealed day, that day's
 * anchor as JSON `{day, signature}`; the last parameter is the row limit.
 */
export function pageSql(where: WhereClause, order: 'ASC' | 'DESC'): string {
  return `SELECT a.*, p.hash AS prev_hash,
      (SELECT json_object('day', n.day, 'signature', n.signature) FROM audit_anchor n WHERE n.seq = a.seq ORDER BY n.day LIMIT 1) AS anchor
    FROM audit_log a LEFT JOIN audit_log p ON p.seq = a.seq - 1
    ${where.sql} ORDER BY a.seq ${order} LIMIT ?`;
}
