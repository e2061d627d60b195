/** The log streams of the spec, one folder each under `<data root>/logs/`. */
export const LOG_STREAMS = ['core', 'api', 'jobs', 'kernel', 'relay'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

/** The streams LPA itself writes; `kernel` and `relay` belong to other programs of the product. */
export const WRITTEN_STREAMS = ['core', 'api', 'jobs'] as const satisfies readonly LogStream[];
export type WrittenStream = (typeof WRITTEN_STREAMS)[number];

/** The spec's file name rule; it also bounds the length (1 + 150 + 4 = 155 characters). */
export const LOG_FILE_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,150}\.log$/;

export function isLogStream(value: string): value is LogStream {
  return (LOG_STREAMS as readonly string[]).includes(value);
}

export function isWrittenStream(value: string): value is WrittenStream {
  return (WRITTEN_STREAMS as readonly string[]).includes(value);
}

export function isLogFileName(value: string): boolean {
  return LOG_FILE_PATTERN.test(value);
}

/** The daily file a line written at `ts` belongs to, by its UTC day: `api-2026-11-21.log`. */
export function dailyLogFile(stream: LogStream, ts: number): string {
  return `${stream}-${new Date(ts).toISOString().slice(0, 10)}.log`;
}

/** A log file as the listing shows it. */
export interface LogFileEntry {
  stream: LogStream;
  file: string;
  size: number;
  /** Last modification, epoch milliseconds. */
  modified_at: number;
}
