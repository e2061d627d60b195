/** How the console writes numbers and times: the same everywhere, in the reader's locale. */

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

export function bytes(count: number | null | undefined): string {
  if (count === null || count === undefined) return 'unknown';
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${count} bytes` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** An epoch-milliseconds time as local date and time; null stays visible as "never". */
export function time(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return 'never';
  return new Date(ms).toLocaleString();
}

/** A flag as a word. */
export const yesNo = (flag: boolean | undefined): string => (flag ? 'yes' : 'no');
