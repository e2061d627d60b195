import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** `LPA_BROWSER_NICE` when unset: the weight a browser's processes yield to the API (docs/runs.md#cpu). */
export const DEFAULT_BROWSER_NICE = 5;

/**
 * A browser's main process, in a process group of its own: Chromium's helpers (zygotes, renderers,
 * the GPU and network services, crashpad) are its children in that group, so `killBrowser` ends
 * them all at once; killing the main process alone leaves them writing into the profile's folder
 * for a moment, and a removal of the folder then fails. The host's servers decide how long the host
 * lives, never a browser: nothing here keeps its event loop open. Without its parent, the browser's
 * DevTools pipe closes and it exits.
 *
 * The group is also a session of its own, which Linux's autogroup scheduler weighs as much as the
 * whole service (docs/runs.md#cpu): `nice` lowers the session's weight so that ten browsers starting
 * at once leave the API its share of the CPU. A process's own nice would change nothing across sessions.
 */
export function spawnBrowser(
  path: string,
  args: readonly string[],
  options: { stdio: StdioOptions; env?: NodeJS.ProcessEnv; nice: number },
): ChildProcess {
  const { nice, ...spawnOptions } = options;
  const child = spawn(path, args, { ...spawnOptions, detached: true });
  child.unref();
  for (const stream of child.stdio) (stream as (Readable & { unref?: () => void }) | null)?.unref?.();
  if (nice !== 0 && child.pid !== undefined && process.platform === 'linux') {
    try {
      writeFileSync(`/proc/${child.pid}/autogroup`, String(nice));
    } catch {
      // A kernel built without autogroup has no such file, and nothing weighs a session there.
    }
  }
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
