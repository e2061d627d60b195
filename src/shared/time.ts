/** One UTC day in milliseconds: the unit of audit seals, retention periods and the daily run. */
export const DAY_MS = 86_400_000;
