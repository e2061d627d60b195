import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * The one way the host opens a file that someone other than LPA may have put in one of its folders
 * (log files, automation files). Such a folder can hold anything: a symbolic or hard link to a file
 * of the user's (`vault.key`), a FIFO, a socket, a device, a folder. Only a regular file with no
 * other name is opened, never through a link, and never waiting.
 */

/**
 * `O_NOFOLLOW`: a link is not followed. `O_NONBLOCK`: a FIFO would otherwise block `open` (and with
 * it the whole host, and on Bun the whole service) until someone writes to it; a device could too.
 * Neither changes how a regular file is read or written. Not every platform has these flags
 * (Windows); there the fstat and realpath checks below still hold.
 */
const OPEN_FLAGS = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Not a file to open: absent (ENOENT, ENOTDIR), a link (ELOOP), a FIFO or socket that cannot be
 * opened as asked (ENXIO), a folder opened for writing (EISDIR).
 */
const NOT_A_PLAIN_FILE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENXIO', 'EISDIR']);

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? '';

/** A regular file with no other name: a hard link elsewhere would make it a window onto that file. */
const isPlainFile = (stats: Stats) => stats.isFile() && stats.nlink === 1;

/** What a listing shows of an entry: its lstat when it is a plain file, null when not (or gone). */
export function plainFileStats(path: string): Stats | null {
  try {
    const stats = lstatSync(path);
    return isPlainFile(stats) ? stats : null;
  } catch (error) {
    if (NOT_A_PLAIN_FILE.has(errno(error))) return null;
    throw error;
  }
}

/**
 * Opens `name` in `folder` (a folder the caller has checked) with `flags`. Returns the descriptor
 * and what fstat says of it, or null when `name` is not a plain file of that folder: absent, a link,
 * not a regular file, a file with a second name, or reached through a folder that was swapped for a
 * link meanwhile. The caller closes the descriptor.
 */
export function openPlainFile(
  folder: string,
  name: string,
  flags: number,
  mode = 0o600,
): { fd: number; stats: Stats } | null {
  const path = join(folder, name);
  let fd: number;
  try {
    fd = openSync(path, flags | OPEN_FLAGS, mode);
  } catch (error) {
    if (NOT_A_PLAIN_FILE.has(errno(error))) return null;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (isPlainFile(stats) && realpathSync(path) === join(realpathSync(folder), name)) return { fd, stats };
  } catch (error) {
    if (!NOT_A_PLAIN_FILE.has(errno(error))) {
      closeSync(fd);
      throw error;
    }
  }
  closeSync(fd);
  return null;
}
