import type { Input } from './api';
import { fieldText } from './field-text';

/** The audit filters the list and the export share (docs/spec.md, Audit log), as the form names them. */
export const AUDIT_TEXT_FILTERS = ['action', 'source', 'actor_type', 'entity_id', 'search'] as const;
export const AUDIT_CATEGORIES = ['account', 'profile', 'startup', 'proxy', 'team'] as const;
export const AUDIT_RESULTS = ['ok', 'denied', 'error'] as const;

const DAY_MS = 24 * 3600 * 1000;

/** The filters as the API takes them: the list's query without its paging. */
export type AuditFilters = Omit<NonNullable<Input<'GET', '/api/v1/audit'>['query']>, 'before_seq' | 'limit'>;

/** A date field's `YYYY-MM-DD` as the UTC midnight that starts it; empty stays empty. */
function dayStart(value: string): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The filter form as the API's query: blank fields left out, the "from" day from its first
 * millisecond (UTC) and the "to" day through its last.
 */
export function auditFilters(form: FormData): AuditFilters {
  const text = (name: string) => fieldText(form, name);
  const query: AuditFilters = {};
  for (const name of [...AUDIT_TEXT_FILTERS, 'result', 'category'] as const) if (text(name)) query[name] = text(name);
  const from = dayStart(text('from'));
  const to = dayStart(text('to'));
  if (from !== undefined) query.from = from;
  if (to !== undefined) query.to = to + DAY_MS - 1;
  return query;
}
