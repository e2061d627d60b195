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

/**
 * A time (epoch milliseconds, or an ISO 8601 text) as local date and time. One rule for an absent time,
 * whatever way the API says it — null, left out, or 0 (the membership's `verifiedUntil` when no account
 * is signed in): "never", not a date in 1970. No time LPA records is at or before the epoch.
 */
export function time(at: number | string | null | undefined): string {
  const ms = typeof at === 'string' ? Date.parse(at) : at;
  if (ms === null || ms === undefined || !(ms > 0)) return 'never';
  return new Date(ms).toLocaleString();
}

/** A flag as a word. */
export const yesNo = (flag: boolean | undefined): string => (flag ? 'yes' : 'no');
