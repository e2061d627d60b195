import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | null {
  try {
    // Field 4 of /proc/<pid>/stat, after the parenthesised command (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function rssBytes(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function command(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** Resident memory of a process and all its descendants (Linux /proc), in total and per process. */
export function treeRss(root: number): { bytes: number; processes: { command: string; bytes: number }[] } {
  const pids = readdirSync('/proc')
    .filter((d) => /^[0-9]+$/.test(d))
    .map(Number);
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const parent = parentOf(pid);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return processesRss(tree);
}

/** Resident memory of these processes (one that has exited counts 0), in total and per process. */
export function processesRss(pids: readonly number[]): {
  bytes: number;
  processes: { command: string; bytes: number }[];
} {
  const processes = pids.map((pid) => ({ command: command(pid), bytes: rssBytes(pid) }));
  return { bytes: processes.reduce((sum, p) => sum + p.bytes, 0), processes };
}
