import { randomUUID } from 'node:crypto';
import { closeSync, constants, mkdirSync, readdirSync, readFile, realpathSync, unlinkSync } from 'node:fs';
import { link, open, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileNameProblem } from '../../shared/file-name';
import { HostRefusal, type HostPort } from '../port';
import { openPlainFile, plainFileStats } from './safe-open';

const FOLDER = 'automation-files';
const TEMPORARY_PREFIX = '.tmp-';

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
 * Writes and syncs every byte, so that what is linked into place is the whole file. Without
 * blocking: the host serves meanwhile (the launcher's front door and relays, all of Bun's and Deno's
 * service), and 4 MiB with its fsync took 3-9 ms on the test machine's disk, far more on a slow one.
 */
async function writeAll(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Temporary files of writes that a crash interrupted; none is in flight while the host starts. */
function sweepTemporaries(dir: string): void {
  for (const name of readdirSync(dir)) if (name.startsWith(TEMPORARY_PREFIX)) unlinkSync(join(dir, name));
}

/**
 * The automation folder of the data root. A file is written whole to a hidden temporary name and
 * then hard-linked to its real name: the link is atomic and fails when the name exists, so a crash
 * never leaves a half file under a real name and an existing file is never replaced. Names are
 * checked again here; the worker is not trusted with a path. Whatever else is in the folder (a
 * link, a FIFO, a device, a folder, a file with a second name) is neither listed nor read: it is
 * opened as safe-open.ts opens any file, so a read never follows a link and never waits. The folder
 * itself is checked like the log folders: one that is a link, or whose real path is not its own
 * place in the data root, is refused (every operation is a HostRefusal) and reported by `problems`.
 */
export function nodeFiles(dataRoot: string): HostPort['files'] {
  /** The folder's real path, or why it is not to be used. */
  const folderState = (): { dir: string } | { problem: string } => {
    const dir = resolve(dataRoot, FOLDER);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const real = realpathSync(dir);
    if (real !== join(realpathSync(dataRoot), FOLDER))
      return { problem: `automation folder ${dir} is a link (to ${real}), not a folder of the data root` };
    return { dir: real };
  };
  const folder = (): string => {
    const state = folderState();
    if ('problem' in state) throw new HostRefusal(state.problem);
    return state.dir;
  };
  const atStart = folderState();
  if ('dir' in atStart) sweepTemporaries(atStart.dir);
  const checked = (name: string): string => {
    const problem = fileNameProblem(name);
    if (problem) throw new HostRefusal(`name ${problem}`);
    return name;
  };
  return {
    async list() {
      const dir = folder();
      const items = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && fileNameProblem(entry.name) === null)
        .flatMap((entry) => {
          // Listed only when it can be read: a second name of a file elsewhere is not listed either.
          const stats = plainFileStats(join(dir, entry.name));
          return stats ? [{ name: entry.name, size_bytes: stats.size }] : [];
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { directory: dir, items };
    },
    async read(name) {
      const opened = openPlainFile(folder(), checked(name), constants.O_RDONLY);
      if (opened === null) return null;
      try {
        return new Uint8Array(await promisify(readFile)(opened.fd));
      } finally {
        closeSync(opened.fd);
      }
    },
    async write(name, bytes) {
      const dir = folder();
      const target = join(dir, checked(name));
      const temporary = join(dir, `${TEMPORARY_PREFIX}${randomUUID()}`);
      await writeAll(temporary, bytes);
      try {
        await link(temporary, target);
      } catch (error) {
        if (errno(error) === 'EEXIST') return 'exists';
        throw error;
      } finally {
        await unlink(temporary);
      }
      await syncFolder(dir);
      return 'created';
    },
    async problems() {
      const state = folderState();
      return 'problem' in state ? [state.problem] : [];
    },
  };
}
