import { appendFileSync, closeSync, constants, mkdirSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { formatLogLine, type LogFields, type LogLevel, type LogRecord } from '../../shared/logs/line';
import { DAY_MS } from '../../shared/time';
import { dailyLogFile, LOG_STREAMS, type LogStream, type WrittenStream } from '../../shared/logs/streams';
import type { CleanupResult, LogTail } from '../operations';
import type { HostPort } from '../port';
import { ensureLogFolders, listLogFiles, logFolderProblems, logsRoot, openLogFile } from './log-files';

const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;

/**
 * Appends records to their stream's daily files (by each record's UTC day), one write per file:
 * never a rewrite, and one `write` keeps a batch's lines together even with other writers.
 */
function appendLogRecords(
  dataRoot: string,
  stream: LogStream,
  records: readonly LogRecord[],
  fileOf: (ts: number) => string = (ts) => dailyLogFile(stream, ts),
): void {
  const byFile = new Map<string, string>();
  for (const record of records) {
    const file = fileOf(record.ts);
    byFile.set(file, `${byFile.get(file) ?? ''}${formatLogLine(record)}\n`);
  }
  mkdirSync(join(logsRoot(dataRoot), stream), { recursive: true, mode: 0o700 });
  for (const [file, text] of byFile) {
    const opened = openLogFile(dataRoot, stream, file, APPEND);
    if (opened === null) throw new Error(`${stream}/${file} is not a plain file in a plain folder; not writing to it`);
    try {
      appendFileSync(opened.fd, text);
    } finally {
      closeSync(opened.fd);
    }
  }
}

/** For the launcher (a Node process): writes one line, in the one format, straight to a stream's file. */
export function appendLogLine(
  dataRoot: string,
  stream: WrittenStream,
  message: string,
  options: { level?: LogLevel; fields?: LogFields; ts?: number } = {},
): void {
  appendLogRecords(dataRoot, stream, [
    { ts: options.ts ?? Date.now(), level: options.level ?? 'info', message, fields: options.fields },
  ]);
}

/**
 * A browser's output, the `kernel` stream: one file per profile and UTC day
 * (`kernel-<profile id>-2026-11-27.log`), in the one line format (redacted like every line).
 */
export function appendKernelLines(dataRoot: string, profileId: string, records: readonly LogRecord[]): void {
  appendLogRecords(dataRoot, 'kernel', records, (ts) =>
    dailyLogFile('kernel', ts).replace(/^kernel-/, `kernel-${profileId}-`),
  );
}

/** The last `maxBytes` bytes of a log file, or null when there is no such log file. */
function readTail(dataRoot: string, stream: LogStream, file: string, maxBytes: number): LogTail | null {
  const opened = openLogFile(dataRoot, stream, file, constants.O_RDONLY);
  if (opened === null) return null;
  try {
    const size = opened.stats.size;
    const offset = Math.max(0, size - maxBytes);
    const bytes = new Uint8Array(size - offset);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(opened.fd, bytes, read, bytes.length - read, offset + read);
      if (n === 0) break; // the file shrank meanwhile
      read += n;
    }
    return {
      entry: { stream, file, size, modified_at: Math.floor(opened.stats.mtimeMs) },
      bytes: bytes.subarray(0, read),
      offset,
    };
  } finally {
    closeSync(opened.fd);
  }
}

/** Deletes the files of each given stream last modified more than its number of days ago. */
function cleanup(dataRoot: string, maxAgeDays: Partial<Record<LogStream, number>>): CleanupResult {
  const now = Date.now();
  const result: CleanupResult = { removed: [], failed: [] };
  const streams = LOG_STREAMS.filter((stream) => maxAgeDays[stream] !== undefined);
  for (const entry of listLogFiles(dataRoot, streams)) {
    if (entry.modified_at >= now - maxAgeDays[entry.stream]! * DAY_MS) continue;
    try {
      unlinkSync(join(logsRoot(dataRoot), entry.stream, entry.file));
      result.removed.push(entry);
    } catch (error) {
      result.failed.push({
        stream: entry.stream,
        file: entry.file,
        error: (error as NodeJS.ErrnoException).code ?? String(error),
      });
    }
  }
  return result;
}

export function nodeLogs(dataRoot: string): HostPort['logs'] {
  try {
    ensureLogFolders(dataRoot);
  } catch {
    // A folder that cannot be made is reported by `problems`, as a warning of core status.
  }
  return {
    append: async (stream, records) => appendLogRecords(dataRoot, stream, records),
    list: async () => listLogFiles(dataRoot),
    tail: async (stream, file, maxBytes) => readTail(dataRoot, stream, file, maxBytes),
    cleanup: async (maxAgeDays) => cleanup(dataRoot, maxAgeDays),
    problems: async () => logFolderProblems(dataRoot),
  };
}
