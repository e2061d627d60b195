export interface Sample {
  /** Milliseconds since the soak started. */
  at: number;
  value: number;
}

/** How much a measure may grow after warm-up: `absolute`, or `share` of its settled value, whichever is larger. */
export interface GrowthLimit {
  absolute: number;
  share: number;
}

/** Resident memory of all service processes: 48 MB or 25 %. */
export const MEMORY_LIMIT: GrowthLimit = { absolute: 48 * 1024 * 1024, share: 0.25 };
/** Open descriptors of all service processes: 32 or 10 % (connections come and go; a leak only grows). */
export const FILES_LIMIT: GrowthLimit = { absolute: 32, share: 0.1 };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * A measure is flat when the median of the last quarter of the run is at most its limit above the
 * median of the second quarter. The first quarter is warm-up: JIT, SQLite page cache, connection
 * buffers and sockets fill there and then stay.
 */
export function growthVerdict(samples: Sample[], limits: GrowthLimit) {
  const end = samples[samples.length - 1]!.at;
  const within = (from: number, to: number) =>
    samples.filter((s) => s.at >= from * end && s.at <= to * end).map((s) => s.value);
  const settled = median(within(0.25, 0.5));
  const last = median(within(0.75, 1));
  const limit = Math.max(limits.absolute, settled * limits.share);
  return {
    first: samples[0]!.value,
    settled,
    last,
    max: Math.max(...samples.map((s) => s.value)),
    growth: last - settled,
    limit,
    flat: last - settled <= limit,
  };
}
