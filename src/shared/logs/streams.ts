import { z } from 'zod';

/** The log streams of the spec, one folder each under `<data root>/logs/`. */
export const LOG_STREAMS = ['core', 'api', 'jobs', 'kernel', 'relay'] as const;
export const LogStream = z.enum(LOG_STREAMS);
export type LogStream = z.output<typeof LogStream>;

/** The streams LPA itself writes; `kernel` and `relay` belong to other programs of the product. */
export const WRITTEN_STREAMS = ['core', 'api', 'jobs'] as const satisfies readonly LogStream[];
export type WrittenStream = (typeof WRITTEN_STREAMS)[number];

/** The spec's file name rule; it also bounds the length (1 + 150 + 4 = 155 characters). */
export const LOG_FILE_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,150}\.log$/;
export const LogFileName = z.string().min(1).max(155).regex(LOG_FILE_PATTERN);

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
export const LogFileEntry = z
  .object({
    stream: LogStream,
    file: z.string(),
    size: z.int().min(0),
    modified_at: z.int().meta({ description: 'Last modification, epoch milliseconds.' }),
  })
  .meta({ id: 'LogFileEntry' });
export type LogFileEntry = z.output<typeof LogFileEntry>;

/** Every log file of every stream, by stream and then file name (code points). */
export const LogFileList = z.object({ items: z.array(LogFileEntry) }).meta({ id: 'LogFileList' });
export type LogFileList = z.output<typeof LogFileList>;
