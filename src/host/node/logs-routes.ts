import { appendFileSync, closeSync, constants, mkdirSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { formatLogLine, LogRecord, type LogFields, type LogLevel } from '../../shared/logs/line';
import { DAY_MS } from '../../shared/time';
import { dailyLogFile, LOG_STREAMS, LogStream, WRITTEN_STREAMS, type WrittenStream } from '../../shared/logs/streams';
import type { CleanupResult } from '../client/logs-port';
import type { HostRoute } from './host-route';
import { ensureLogFolders, listLogFiles, logFolderProblems, LogNameError, logsRoot, openLogFile } from './log-files';

/** The most a tail read returns; the worker asks for 256 KiB. */
const MAX_TAIL_BYTES = 1024 * 1024;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;

/**
 * Appends records to their stream's daily files (by each record's UTC day), one write per file:
 * never a rewrite, and one `write` keeps a batch's lines together even with other writers.
 */
export function appendLogRecords(dataRoot: string, stream: WrittenStream, records: readonly LogRecord[]): void {
  const byFile = new Map<string, string>();
  for (const record of records) {
    const file = dailyLogFile(stream, record.ts);
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
  appendLogRecords(dataRoot, stream, [{ ts: options.ts ?? Date.now(), level: options.level ?? 'info', message, fields: options.fields }]);
}

/** The last `maxBytes` bytes of a log file, or null when there is no such log file. */
function readTail(dataRoot: string, stream: string, file: string, maxBytes: number): Response {
  const opened = openLogFile(dataRoot, stream, file, constants.O_RDONLY);
  if (opened === null) return Response.json({ error: 'absent' }, { status: 404 });
  try {
    const size = opened.stats.size;
    const offset = Math.max(0, size - maxBytes);
    const bytes = Buffer.alloc(size - offset);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(opened.fd, bytes, read, bytes.length - read, offset + read);
      if (n === 0) break; // the file shrank meanwhile
      read += n;
    }
    return new Response(bytes.subarray(0, read), {
      headers: {
        'content-type': 'application/octet-stream',
        'x-log-size': String(size),
        'x-log-modified-at': String(Math.floor(opened.stats.mtimeMs)),
        'x-log-offset': String(offset),
      },
    });
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
      result.failed.push({ stream: entry.stream, file: entry.file, error: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  }
  return result;
}

const AppendBody = z.object({ records: z.array(LogRecord).max(10_000) });
const CleanupBody = z.object({ max_age_days: z.partialRecord(LogStream, z.int().min(1)) });

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new LogNameError('broken percent-encoding');
  }
}

async function jsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T> | Response> {
  const parsed = schema.safeParse(await request.json().catch(() => undefined));
  return parsed.success ? parsed.data : Response.json({ error: 'bad body', issues: parsed.error.issues }, { status: 400 });
}

/** Refuses names that are not log names, rather than failing the host. */
function namesChecked(handle: () => Response): Response {
  try {
    return handle();
  } catch (error) {
    if (error instanceof LogNameError) return Response.json({ error: error.message }, { status: 400 });
    throw error;
  }
}

export function logHostRoutes(dataRoot: string): HostRoute[] {
  try {
    ensureLogFolders(dataRoot);
  } catch {
    // A folder that cannot be made is reported by GET /logs/health, as a warning of core status.
  }
  return [
    { method: 'GET', pattern: /^\/logs$/, handle: () => Response.json({ items: listLogFiles(dataRoot) }) },
    { method: 'GET', pattern: /^\/logs\/health$/, handle: () => Response.json({ problems: logFolderProblems(dataRoot) }) },
    {
      method: 'POST',
      pattern: new RegExp(`^/logs/(${WRITTEN_STREAMS.join('|')})$`),
      handle: async (request, [stream]) => {
        const body = await jsonBody(request, AppendBody);
        if (body instanceof Response) return body;
        appendLogRecords(dataRoot, stream as WrittenStream, body.records);
        return Response.json({ ok: true });
      },
    },
    {
      method: 'POST',
      pattern: /^\/logs\/cleanup$/,
      handle: async (request) => {
        const body = await jsonBody(request, CleanupBody);
        return body instanceof Response ? body : Response.json(cleanup(dataRoot, body.max_age_days));
      },
    },
    {
      method: 'GET',
      pattern: /^\/logs\/([^/]+)\/([^/]+)$/,
      handle: (request, [stream, file]) =>
        namesChecked(() => {
          const maxBytes = Number(new URL(request.url).searchParams.get('max_bytes'));
          if (!Number.isSafeInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_TAIL_BYTES) {
            return Response.json({ error: `max_bytes must be an integer 1..${MAX_TAIL_BYTES}` }, { status: 400 });
          }
          return readTail(dataRoot, decodeSegment(stream!), decodeSegment(file!), maxBytes);
        }),
    },
  ];
}
