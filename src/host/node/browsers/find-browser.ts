import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserFound } from '../../runs-schema';

/** Where LPA looks when `LPA_BROWSER` is unset, in this order: Debian's Chromium, Google Chrome, other Chromium builds. */
const CANDIDATES = ['chromium', 'google-chrome-stable', 'google-chrome', 'chromium-browser', 'chrome'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/**
 * The browser runs use: `LPA_BROWSER` (a path, or a name on PATH) when set, else the first of the
 * usual Chromium-based executables on PATH; its version is what `--version` prints. A browser that is
 * named but missing, or that does not answer `--version`, is a problem, never a silent fallback.
 * `--version` runs without blocking: Chromium takes ~70 ms to print it (up to the 15 s bound for a
 * browser that hangs), during which the host's other requests and DevTools relays go on.
 */
export async function findBrowser(named: string | undefined): Promise<BrowserFound> {
  const wanted = named?.trim() || null;
  const path = wanted
    ? isAbsolute(wanted)
      ? executable(wanted)
        ? wanted
        : null
      : onPath(wanted)
    : (CANDIDATES.map((name) => onPath(name)).find((found) => found !== null) ?? null);
  if (path === null)
    return {
      found: false,
      problem: wanted
        ? `LPA_BROWSER names ${wanted}, which is not an executable`
        : `no Chromium-based browser found on PATH (looked for ${CANDIDATES.join(', ')}); set LPA_BROWSER`,
    };
  try {
    const { stdout: printed } = await promisify(execFile)(path, ['--version'], { encoding: 'utf8', timeout: 15_000 });
    const version = /(\d+\.\d+\.\d+\.\d+)/.exec(printed)?.[1];
    if (!version) return { found: false, problem: `${path} --version printed no version` };
    return { found: true, path, version, product: printed.trim().split('\n')[0]!.slice(0, 200) };
  } catch (error) {
    return { found: false, problem: `${path} --version failed: ${(error as Error).message.slice(0, 200)}` };
  }
}
