import { accessSync, constants, lstatSync, mkdirSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { isLogFileName, isLogStream, LOG_STREAMS, type LogFileEntry, type LogStream } from '../../shared/logs/streams';
import { HostRefusal } from '../port';
import { openPlainFile, plainFileStats } from './safe-open';

/**
 * The log folders of a data root, and the only ways into them. Every file is reached by a stream
 * and a file name that are checked here (not only by the worker), never through a link: a link in
 * place of a folder or a file, or a file with a second name elsewhere (a hard link), is not a log file.
 */

export const logsRoot = (dataRoot: string) => join(dataRoot, 'logs');
const streamPath = (dataRoot: string, stream: LogStream) => join(logsRoot(dataRoot), stream);

/** Names that are not log names are refused, whoever asks. */
function assertNames(stream: string, file?: string): asserts stream is LogStream {
  if (!isLogStream(stream)) throw new HostRefusal(`not a log stream: ${JSON.stringify(stream.slice(0, 40))}`);
  if (file !== undefined && !isLogFileName(file))
    throw new HostRefusal(`not a log file name: ${JSON.stringify(file.slice(0, 200))}`);
}

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The stream's folder when it and `logs/` are real folders; null when absent or not to be trusted. */
function streamFolder(dataRoot: string, stream: LogStream): string | null {
  try {
    return [logsRoot(dataRoot), streamPath(dataRoot, stream)].every((dir) => lstatSync(dir).isDirectory())
      ? streamPath(dataRoot, stream)
      : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function ensureLogFolders(dataRoot: string): void {
  for (const stream of LOG_STREAMS) mkdirSync(streamPath(dataRoot, stream), { recursive: true, mode: 0o700 });
}

/**
 * Opens a log file as safe-open.ts opens any file. Returns null when there is no such log file
 * (absent, a link, not a regular file, a second name of a file); refuses (HostRefusal) a name that
 * is not a log file name.
 */
export function openLogFile(
  dataRoot: string,
  stream: string,
  file: string,
  flags: number,
): { fd: number; stats: Stats } | null {
  assertNames(stream, file);
  const folder = streamFolder(dataRoot, stream);
  if (folder === null) return null;
  return openPlainFile(folder, file, flags);
}

/** Every log file of every stream, as the listing shows it. */
export function listLogFiles(dataRoot: string, streams: readonly LogStream[] = LOG_STREAMS): LogFileEntry[] {
  const entries: LogFileEntry[] = [];
  for (const stream of streams) {
    const folder = streamFolder(dataRoot, stream);
    if (folder === null) continue;
    let dirents: Dirent[];
    try {
      dirents = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) continue; // removed since it was checked
      throw error;
    }
    for (const dirent of dirents) {
      if (!dirent.isFile() || !isLogFileName(dirent.name)) continue;
      const stats = plainFileStats(join(folder, dirent.name));
      if (stats) entries.push({ stream, file: dirent.name, size: stats.size, modified_at: Math.floor(stats.mtimeMs) });
    }
  }
  // By code point, not locale: the same order on every machine.
  const key = (entry: LogFileEntry) => `${entry.stream}/${entry.file}`;
  return entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function folderProblem(dataRoot: string, stream: LogStream): string | null {
  const dir = streamPath(dataRoot, stream);
  try {
    if (streamFolder(dataRoot, stream) === null) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (streamFolder(dataRoot, stream) === null) return `log folder ${dir} is a link, not a folder`;
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EEXIST'
      ? `log folder ${dir} is not a folder`
      : `log folder ${dir} cannot be written (${code ?? String(error)})`;
  }
}

/** What keeps the log folders from being written, one sentence each; empty when all is well. */
export function logFolderProblems(dataRoot: string): string[] {
  return LOG_STREAMS.map((stream) => folderProblem(dataRoot, stream)).filter((problem) => problem !== null);
}
