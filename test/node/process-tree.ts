import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The direct children of a process (pgrep exits 1 when there are none). */
function children(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A process and all its descendants: the launcher and workerd (and esbuild, while a stale build runs). */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...children(out[i]!));
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills a whole tree at once with SIGKILL, as a power cut or the OOM killer would: nobody gets to
 * clean up. The tree is collected first, so that a child is not re-parented before it is found.
 */
export async function killTree(pid: number, timeoutMs = 10_000): Promise<number[]> {
  const tree = processTree(pid);
  for (const p of tree) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + timeoutMs;
  while (tree.some(isAlive)) {
    if (Date.now() > deadline)
      throw new Error(`processes still alive after SIGKILL: ${tree.filter(isAlive).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return tree;
}

/** Resident memory of a set of processes, in bytes (Linux /proc); a process that is gone counts 0. */
export function rssBytes(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += match ? Number(match[1]) * 1024 : 0;
    } catch {
      // exited between listing and reading
    }
  }
  return total;
}

/** The command line of a process, as its arguments. */
export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}
