import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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

/** Whether the process runs: a zombie (killed, its parent not yet reaping it) has ended and counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // The state follows the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
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

/**
 * The main Chromium processes on this machine whose profile folder (`--user-data-dir`) is under
 * `root`, with their command lines. Main processes only: a helper's (`--type=…`) may come first,
 * since pids wrap around (pid_max is 32,768 here, and a test run starts thousands of Chromium processes).
 */
export function browsersUnder(root: string): { pid: number; command: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`--user-data-dir=${root}`) && !line.includes('--type='))
    .map((line) => {
      const [, pid, command] = /^\s*(\d+)\s+(.*)$/.exec(line)!;
      return { pid: Number(pid), command: command! };
    });
}

/** The command line of a process, as its arguments. */
export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * The TCP ports the processes `pids` listen on (Linux /proc): their sockets' inodes, looked up in the
 * machine's tables of IPv4 and IPv6 sockets in state LISTEN (`0A`).
 */
export function listeningPorts(pids: readonly number[]): number[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket) inodes.add(socket[1]!);
      }
    } catch {
      // exited while listed, or a descriptor closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.add(Number.parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports];
}
