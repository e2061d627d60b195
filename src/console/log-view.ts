/** What the excerpt viewer shows of a log excerpt: numbered lines, within a range, matching a search. */

export interface LogLine {
  /** 1-based, counted from the excerpt's first line. */
  no: number;
  text: string;
}

export interface LogView {
  /** First and last line to show, 1-based and inclusive; absent means from the start / to the end. */
  from?: number;
  to?: number;
  /** Case-insensitive text the line must contain; blank shows every line. */
  search?: string;
}

export function excerptLines(text: string, { from, to, search }: LogView): LogLine[] {
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const needle = (search ?? '').trim().toLowerCase();
  return lines
    .map((line, i) => ({ no: i + 1, text: line }))
    .filter(
      ({ no, text: line }) =>
        (from === undefined || no >= from) &&
        (to === undefined || no <= to) &&
        (needle === '' || line.toLowerCase().includes(needle)),
    );
}
