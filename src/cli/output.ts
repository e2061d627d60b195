import { escapeUnsafe } from '../shared/unicode';

/**
 * What the CLI prints of the service's text: every control character in it, and every line or
 * paragraph separator and bidirectional control, as `\uXXXX`, so that no answer (nor a team's,
 * which a joined machine passes on) can recolour, move the cursor or rewrite what the terminal
 * shows. Only the line feeds of a multi-line text (a log excerpt, a PEM key) are kept; a table cell
 * or a value of one line keeps none. Inside JSON strings the escapes mean the same characters.
 */
export const printable = (text: string) => escapeUnsafe(text, '\n');

/** Prints data as JSON for scripts, or through a human formatter by default. */
export function show<T>(data: T, json: boolean | undefined, human: (data: T) => string): void {
  process.stdout.write(`${printable(json ? JSON.stringify(data, null, 2) : human(data))}\n`);
}

/**
 * Times for people are ISO 8601. The API gives some as epoch milliseconds (`ts`, `created_at`,
 * `expires_at`, …) and some as ISO text already; a number under a time's name is shown as ISO too,
 * so that a table never mixes the two. `--json` keeps the API's values as they are.
 */
const isTimeName = (name: string) => name === 'ts' || name.endsWith('_at');
const forPeople = (name: string, value: unknown): unknown =>
  isTimeName(name) && typeof value === 'number' ? new Date(value).toISOString() : value;

/** Aligned columns, for lists of records. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (row: Record<string, unknown>, column: string) => {
    const v = forPeople(column, row[column]);
    return escapeUnsafe(v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));
  };
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r, c))))].join(
    '\n',
  );
}

export function keyValues(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map((entry) => escapeUnsafe(keyValue(...entry)))
    .join('\n');
}

const keyValue = (k: string, v: unknown) =>
  `${k}: ${v !== null && typeof v === 'object' ? JSON.stringify(v, forPeople) : String(forPeople(k, v))}`;
