import { DAY_MS } from '../../src/shared/time';

/** Days since the epoch of a timestamp (epoch ms); UTC days are the unit that anchors seal. */
export function dayIndex(ts: number): number {
  return Math.floor(ts / DAY_MS);
}

/** `YYYY-MM-DD` of a day index. */
export function dayName(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}
