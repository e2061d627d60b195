import type { AuditRecord, ExportFormat, ExportHead } from './schema';

/** The columns of the CSV export: the spec's entry fields, then the chain links. */
const COLUMNS = [
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
  'hash',
  'prev_hash',
] as const satisfies readonly (keyof AuditRecord)[];

/**
 * A cell that a spreadsheet would take for a formula (OWASP's CSV injection rule: it begins with `=`,
 * `+`, `-`, `@`, a tab or a carriage return; a file named `=HYPERLINK(…)`, say) is written with a
 * single quote before it, inside quotes, so that it is shown as text and never run.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; null is an empty field. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields: readonly unknown[]) => `${fields.map(csvField).join(',')}\r\n`;

/** What a file starts with: the CSV header row; a JSONL file has none. */
export function exportHeader(format: ExportFormat): string {
  return format === 'csv' ? csvLine(COLUMNS) : '';
}

/** One record as a line of the file, line break included. */
export function exportLine(format: ExportFormat, record: AuditRecord): string {
  return format === 'csv' ? csvLine(COLUMNS.map((column) => record[column])) : `${JSON.stringify(record)}\n`;
}

/** What a file ends with: a JSONL file its signed head (storage/audit/export-head.ts); a CSV file nothing. */
export function exportTail(format: ExportFormat, head: ExportHead | null): string {
  return format === 'jsonl' && head !== null ? `${JSON.stringify({ head })}\n` : '';
}
