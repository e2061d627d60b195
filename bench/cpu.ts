/** CPU time of a process tree (Linux /proc): what the service spends, whichever of its processes spends it. */
import { readFileSync } from 'node:fs';
import { processTree } from '../test/node/process-tree';

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) each process of the tree has used so far, by pid. */
export function treeCpu(root: number): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of processTree(root)) {
    try {
      // Fields 14 and 15 (utime, stime), counted after the parenthesised command, which may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // exited while listed
    }
  }
  return used;
}

/** The command name of a process (`node`, `workerd`), or null once it has exited. */
function processName(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * CPU seconds the tree used between `before` and now (a process started since counts from 0), in all
 * and by process name, so that a figure says which of the service's processes spent it.
 */
export function cpuSince(root: number, before: Map<number, number>): { seconds: number; byName: Map<string, number> } {
  let seconds = 0;
  const byName = new Map<string, number>();
  for (const [pid, now] of treeCpu(root)) {
    const used = now - (before.get(pid) ?? 0);
    const name = processName(pid) ?? 'exited';
    seconds += used;
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  return { seconds, byName };
}

/**
 * CPU seconds a process's main thread has run so far, to the nanosecond (/proc/<pid>/schedstat):
 * for a single event loop's work over a few hundred messages, which treeCpu's clock ticks cannot tell.
 */
export function mainThreadCpu(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
}
