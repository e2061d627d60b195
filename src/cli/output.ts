/** Prints data as JSON for scripts, or through a human formatter by default. */
export function show<T>(data: T, json: boolean | undefined, human: (data: T) => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human(data)}\n`);
}

/** Aligned columns, for lists of records. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

export function keyValues(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}: ${v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}
