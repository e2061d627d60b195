/** UTC days, the unit that anchors seal. */
export const DAY_MS = 86_400_000;

/** Days since the epoch of a timestamp (epoch ms). */
export function dayIndex(ts: number): number {
  return Math.floor(ts / DAY_MS);
}

/** `YYYY-MM-DD` of a day index. */
export function dayName(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}
