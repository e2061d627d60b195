/**
 * fsyncs per acknowledged write: strace (Linux, `apt-get install strace`; attaching needs ptrace
 * rights, as root or with kernel.yama.ptrace_scope 0) counts fsync and fdatasync calls of the whole
 * service tree — launcher and workerd — while a write load runs. /proc/<pid>/io has no fsync
 * counter, hence strace. Attached to running processes, strace cannot install its seccomp filter
 * and stops them at every system call, which slows the load several times: the counted run is never
 * the run whose speed is reported (bench/load.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTree } from '../test/node/process-tree';

export function straceAvailable(): boolean {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The `calls` of fsync and fdatasync in strace's `-c` summary. */
function syncCalls(summary: string): number {
  let calls = 0;
  for (const line of summary.split('\n')) {
    const cells = line.trim().split(/\s+/);
    if (cells.at(-1) === 'fsync' || cells.at(-1) === 'fdatasync') calls += Number(cells[3]);
  }
  return calls;
}

/** Runs `load` with strace attached to `pid` and its descendants; the fsyncs counted and what `load` returned. */
export async function countingFsyncs<T>(pid: number, load: () => Promise<T>): Promise<{ fsyncs: number; result: T }> {
  const dir = mkdtempSync(join(tmpdir(), 'lpa-strace-'));
  const out = join(dir, 'summary');
  const args = [
    '-f',
    '-c',
    '-e',
    'trace=fsync,fdatasync',
    '-o',
    out,
    ...processTree(pid).flatMap((p) => ['-p', String(p)]),
  ];
  const strace = spawn('strace', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  strace.stderr.on('data', (c: Buffer) => (errors += c.toString()));
  // strace says "Process N attached" for each process once it traces it.
  const attached = processTree(pid).length;
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if ((errors.match(/attached/g) ?? []).length >= attached) done(resolve);
    }, 20);
    const done = (then: () => void) => (clearInterval(check), then());
    strace.once('exit', (code) => done(() => reject(new Error(`strace exited (${code}): ${errors}`))));
  });
  const exited = new Promise((resolve) => strace.once('exit', resolve));
  try {
    const result = await load();
    strace.kill('SIGINT');
    await exited;
    return { fsyncs: syncCalls(readFileSync(out, 'utf8')), result };
  } finally {
    strace.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
  }
}
