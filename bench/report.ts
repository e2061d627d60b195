/** The table of figures, on the terminal and in bench/RESULTS.md. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

export interface Row {
  section: string;
  figure: string;
  value: string;
  reference: string;
  ratio: string;
  target: string;
  /** null when the figure has no target of its own. */
  met: boolean | null;
}

const ANALYSIS_MARK = '<!-- analysis: kept across runs -->';
const COLUMNS = ['Section', 'Figure', 'Value', 'Reference (same run)', 'Ratio', 'Target', 'Met'] as const;

const cells = (row: Row) => [
  row.section,
  row.figure,
  row.value,
  row.reference,
  row.ratio,
  row.target,
  row.met === null ? '' : row.met ? 'yes' : '**no**',
];

export function printTable(rows: Row[]): void {
  printGrid(COLUMNS, rows.map(cells));
}

/** The same table in Markdown, for RESULTS.md. */
export function markdownRows(rows: Row[]): string[] {
  return markdownTable(COLUMNS, rows.map(cells));
}

/** Any table on the terminal, each column as wide as its widest cell (Markdown's bold marks dropped). */
export function printGrid(columns: readonly string[], rows: string[][]): void {
  const all = [columns.slice(), ...rows.map((r) => r.map((c) => c.replace(/\*\*/g, '')))];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  for (const [n, r] of all.entries()) {
    console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

export function markdownTable(columns: readonly string[], rows: string[][]): string[] {
  return [
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

/** Where and when a run ran; `generator` is what made the load. */
export function machine(generator = 'the load generator (autocannon, in the bench process)'): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--untracked-files=no') ? ' (with uncommitted changes)' : '';
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Commit: ${git('rev-parse', '--short', 'HEAD')}${dirty}`,
    `- Machine: ${cpus().length} CPUs (nproc), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${cpus()[0]?.model ?? 'unknown CPU'}`,
    `- Load average at the end of the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (the machine is shared; other work competes for the CPUs)`,
    `- Node ${process.version}; ${generator} runs on the same machine as the servers.`,
  ].join('\n');
}

/** Rewrites the generated part of RESULTS.md; the hand-written analysis after the mark is kept. */
export function writeResults(file: string, mode: string, rows: Row[], notes: string[]): void {
  const kept = existsSync(file) ? readFileSync(file, 'utf8').split(ANALYSIS_MARK)[1] : undefined;
  const text = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${mode === 'quick' ? ' -- --quick' : ''}\` (${mode} run). Every ratio compares figures measured in the same run.`,
    '',
    machine(),
    '',
    ...markdownRows(rows),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
    ANALYSIS_MARK,
    kept?.replace(/^\n+/, '') ?? '\n## Where a target is missed, and why\n\n(not written yet)\n',
  ].join('\n');
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Rewrites one generated section of RESULTS.md, between `<!-- {name}: generated -->` and
 * `<!-- /{name} -->` (appended at the end the first time), and nothing else: a scenario that runs on
 * its own (`--teams`) keeps the main table and every hand-written word. The section sits after the
 * analysis mark, so the main run keeps it too.
 */
export function writeSection(file: string, name: string, lines: string[]): void {
  const begin = `<!-- ${name}: generated -->`;
  const end = `<!-- /${name} -->`;
  const text = readFileSync(file, 'utf8');
  const block = [begin, ...lines, end].join('\n');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}`
      : `${text.replace(/\n*$/, '\n\n')}${block}\n`;
  writeFileSync(file, next);
}
