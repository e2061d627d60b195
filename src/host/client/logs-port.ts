import { z } from 'zod';
import type { LogRecord } from '../../shared/logs/line';
import { LogFileEntry, LogStream, type LogFileList, type WrittenStream } from '../../shared/logs/streams';
import { HOST_BASE, hostJson, type HostFetcher } from './fetcher';

/** What the host's log cleanup removed, and what it could not. */
export const CleanupResult = z.object({
  removed: z.array(LogFileEntry),
  failed: z.array(z.object({ stream: LogStream, file: z.string(), error: z.string() })),
});
export type CleanupResult = z.output<typeof CleanupResult>;

/** The end of one log file, as raw bytes; `offset` > 0 means the file holds more before them. */
export interface LogTail {
  entry: LogFileEntry;
  bytes: Uint8Array;
  offset: number;
}

export interface LogsPort {
  /** Appends lines to the stream's daily files; the host formats them (src/shared/logs/line.ts). */
  append(stream: WrittenStream, records: readonly LogRecord[]): Promise<void>;
  list(): Promise<LogFileEntry[]>;
  /** The last `maxBytes` bytes of a file; null when the stream has no such log file. */
  tail(stream: LogStream, file: string, maxBytes: number): Promise<LogTail | null>;
  /**
   * Deletes files last modified more than the given number of days ago, per stream. Age is measured
   * by the host's clock, the one that stamped the modification times.
   */
  cleanup(maxAgeDays: Record<LogStream, number>): Promise<CleanupResult>;
  /** Why log folders cannot be written, one sentence each. */
  problems(): Promise<string[]>;
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export function logsClient(fetcher: HostFetcher): LogsPort {
  return {
    async append(stream, records) {
      await hostJson(fetcher, `/logs/${stream}`, post({ records }));
    },
    list: async () => (await hostJson<LogFileList>(fetcher, '/logs')).items,
    async tail(stream, file, maxBytes) {
      const path = `/logs/${encodeURIComponent(stream)}/${encodeURIComponent(file)}?max_bytes=${maxBytes}`;
      const response = await fetcher.fetch(`${HOST_BASE}${path}`);
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`host GET /logs/${stream}/…: HTTP ${response.status}`);
      const header = (name: string) => Number(response.headers.get(name));
      return {
        entry: { stream, file, size: header('x-log-size'), modified_at: header('x-log-modified-at') },
        bytes: new Uint8Array(await response.arrayBuffer()),
        offset: header('x-log-offset'),
      };
    },
    cleanup: (maxAgeDays) => hostJson<CleanupResult>(fetcher, '/logs/cleanup', post({ max_age_days: maxAgeDays })),
    problems: async () => (await hostJson<{ problems: string[] }>(fetcher, '/logs/health')).problems,
  };
}
