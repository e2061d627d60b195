export interface MemorySample {
  /** Milliseconds since the soak started. */
  at: number;
  rss: number;
}

/**
 * Memory is flat when the median RSS of the last quarter of the run is at most LIMIT_BYTES (or
 * LIMIT_SHARE of it, whichever is larger) above the median of the second quarter. The first quarter
 * is warm-up: JIT, SQLite page cache and connection buffers fill there and then stay.
 */
const LIMIT_BYTES = 48 * 1024 * 1024;
const LIMIT_SHARE = 0.25;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export function memoryVerdict(samples: MemorySample[]) {
  const end = samples[samples.length - 1]!.at;
  const within = (from: number, to: number) => samples.filter((s) => s.at >= from * end && s.at <= to * end).map((s) => s.rss);
  const settled = median(within(0.25, 0.5));
  const last = median(within(0.75, 1));
  const limit = Math.max(LIMIT_BYTES, settled * LIMIT_SHARE);
  return {
    first: samples[0]!.rss,
    settled,
    last,
    max: Math.max(...samples.map((s) => s.rss)),
    growth: last - settled,
    limit,
    flat: last - settled <= limit,
  };
}
