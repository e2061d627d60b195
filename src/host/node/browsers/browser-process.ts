import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * `LPA_BROWSER_NICE` when unset: a starting browser yields the CPU to the API (docs/runs.md#cpu).
 * Measured with 10 headless starts at once: `/status` p99 13–48 ms at 10 against 92–364 ms at 0;
 * the 10 starts took 3.5–4.2 s, 10 direct launches of the same browser 3.1–3.8 s.
 */
export const DEFAULT_BROWSER_NICE = 10;

/**
 * How long a browser's session keeps its nice at most: one that has not answered by then gets its
 * full weight, so that on a machine busy with other work a start still answers within its timeout.
 */
const NICE_FOR_MS = 5_000;

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
 * at once leave the API its share of the CPU (`weighSession` gives it back once the browser answers,
 * or after `NICE_FOR_MS`).
 * A process's own nice would change nothing across sessions.
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
  if (nice !== 0) {
    weighSession(child, nice);
    const full = setTimeout(() => weighSession(child, 0), NICE_FOR_MS).unref();
    child.once('exit', () => clearTimeout(full));
  }
  return child;
}

/** The nice each browser's session was last asked to get. */
const asked = new WeakMap<ChildProcess, number>();
/** The nice each browser's session is still to get, while an earlier change waits (below). */
const waiting = new WeakMap<ChildProcess, number>();

/**
 * Sets the nice of the browser's session (Linux's `/proc/<pid>/autogroup`). Linux takes one such
 * change every 100 ms on the whole machine from a user without CAP_SYS_ADMIN (EAGAIN otherwise),
 * so a refused change is made again 100 ms later, the latest nice asked for, until the browser exits.
 */
export function weighSession(child: ChildProcess, nice: number): void {
  if (child.pid === undefined || process.platform !== 'linux' || asked.get(child) === nice) return;
  asked.set(child, nice);
  const pending = waiting.has(child);
  waiting.set(child, nice);
  if (!pending) writeNice(child);
}

function writeNice(child: ChildProcess): void {
  try {
    writeFileSync(`/proc/${child.pid}/autogroup`, String(waiting.get(child)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN' && child.exitCode === null && child.signalCode === null) {
      setTimeout(() => writeNice(child), 100).unref();
      return;
    }
    // Otherwise the browser is gone, or the kernel has no autogroup and weighs no session.
  }
  waiting.delete(child);
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
