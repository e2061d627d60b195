import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * A browser's main process, in a process group of its own: Chromium's helpers (zygotes, renderers,
 * the GPU and network services, crashpad) are its children in that group, so `killBrowser` ends
 * them all at once; killing the main process alone leaves them writing into the profile's folder
 * for a moment, and a removal of the folder then fails. The host's servers decide how long the host
 * lives, never a browser: nothing here keeps its event loop open. Without its parent, the browser's
 * DevTools pipe closes and it exits.
 */
export function spawnBrowser(
  path: string,
  args: readonly string[],
  options: { stdio: StdioOptions; env?: NodeJS.ProcessEnv },
): ChildProcess {
  const child = spawn(path, args, { ...options, detached: true });
  child.unref();
  for (const stream of child.stdio) (stream as (Readable & { unref?: () => void }) | null)?.unref?.();
  return child;
}

/** SIGKILL to every process still in the browser's group (`spawnBrowser`); a no-op once it has exited. */
export function killBrowser(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already: every process of it has exited.
  }
}
