import { randomUUID } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileNameProblem } from '../../shared/file-name';
import type { AutomationFileListing } from '../files-schema';
import type { HostRoute } from './host-route';
import { openPlainFile, plainFileStats } from './safe-open';

const FOLDER = 'automation-files';
const TEMPORARY_PREFIX = '.tmp-';

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Writes and syncs every byte, so that what is linked into place is the whole file. */
function writeAll(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
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
 * opened as safe-open.ts opens any file, so a read never follows a link and never waits.
 */
export function fileHostRoutes(dataRoot: string): HostRoute[] {
  const folder = (): string => {
    const dir = resolve(dataRoot, FOLDER);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return realpathSync(dir);
  };
  sweepTemporaries(folder());
  const named = (encoded: string): { dir: string; name: string } | Response => {
    let name: string;
    try {
      name = decodeURIComponent(encoded);
    } catch {
      return Response.json({ error: 'bad name' }, { status: 400 });
    }
    const problem = fileNameProblem(name);
    return problem ? Response.json({ error: `name ${problem}` }, { status: 400 }) : { dir: folder(), name };
  };
  return [
    {
      method: 'GET',
      pattern: /^\/files$/,
      handle: () => {
        const dir = folder();
        const items = readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isFile() && fileNameProblem(entry.name) === null)
          .flatMap((entry) => {
            // Listed only when it can be read: a second name of a file elsewhere is not listed either.
            const stats = plainFileStats(join(dir, entry.name));
            return stats ? [{ name: entry.name, size_bytes: stats.size }] : [];
          })
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return Response.json({ directory: dir, items } satisfies AutomationFileListing);
      },
    },
    {
      method: 'GET',
      pattern: /^\/files\/([^/]+)$/,
      handle: (_, [encoded]) => {
        const target = named(encoded!);
        if (target instanceof Response) return target;
        const opened = openPlainFile(target.dir, target.name, constants.O_RDONLY);
        if (opened === null) return Response.json({ error: 'absent' }, { status: 404 });
        try {
          return new Response(readFileSync(opened.fd));
        } finally {
          closeSync(opened.fd);
        }
      },
    },
    {
      method: 'PUT',
      pattern: /^\/files\/([^/]+)$/,
      handle: async (request, [encoded]) => {
        const target = named(encoded!);
        if (target instanceof Response) return target;
        const bytes = new Uint8Array(await request.arrayBuffer());
        const temporary = join(target.dir, `${TEMPORARY_PREFIX}${randomUUID()}`);
        writeAll(temporary, bytes);
        try {
          linkSync(temporary, join(target.dir, target.name));
        } catch (error) {
          if (errno(error) === 'EEXIST') return Response.json({ error: 'exists' }, { status: 409 });
          throw error;
        } finally {
          unlinkSync(temporary);
        }
        syncFolder(target.dir);
        return Response.json({ size_bytes: bytes.length }, { status: 201 });
      },
    },
  ];
}
