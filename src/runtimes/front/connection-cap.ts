import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Descriptors kept for everything but client connections: the store, logs, the host socket, the runtime's own. */
export const RESERVED_FILES = 128;

/** This process's soft limit of open files (raised to the hard limit at start by every runtime). */
export function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.replace('Max open files', '').trim().split(/\s+/)[0];
    if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
    if (soft && /^\d+$/.test(soft)) return Number(soft);
  } catch {
    // not Linux: ask a shell, which inherits the limit
  }
  const shell = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim();
  return shell === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(shell) || 256;
}

/**
 * How many client connections the front door serves at once, when each costs `filesPerConnection`
 * descriptors in the process with the tightest limit: what is left under the limit after RESERVED_FILES.
 */
export function connectionCap(filesPerConnection: number, limit = openFileLimit()): number {
  return Math.max(16, Math.floor((Math.min(limit, 1 << 20) - RESERVED_FILES) / filesPerConnection));
}
