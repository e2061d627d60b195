import { env } from 'cloudflare:workers';
import { hostClient, type HostPort } from '../../src/host/port';
import type { FixtureOp } from './fixture-ops';

declare global {
  namespace Cloudflare {
    interface Env {
      /**
       * Test-only: files and links in the data root (test/node/fs-fixtures.ts). Optional, so that the
       * worker's own env (which never has it) still satisfies Env.
       */
      TEST_FS?: Fetcher;
    }
  }
}

const testFs = () => env.TEST_FS!;

async function fsOp<T = { ok: true }>(op: FixtureOp): Promise<T> {
  const response = await testFs().fetch('http://fixtures/', { method: 'POST', body: JSON.stringify(op) });
  if (!response.ok) throw new Error(`fixture ${op.op} ${op.path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Writes a file under the data root; `mtime` (epoch ms) sets its modification time. */
export function plant(path: string, text: string, options: { repeat?: number; mtime?: number } = {}) {
  return fsOp({ op: 'write', path, text, ...options });
}

export const plantSymlink = (path: string, target: string) => fsOp({ op: 'symlink', path, target });
export const plantHardLink = (path: string, target: string) => fsOp({ op: 'link', path, target });
export const plantFifo = (path: string) => fsOp({ op: 'fifo', path });
export const removePath = (path: string) => fsOp({ op: 'remove', path });

/** A file under the data root as it is on disk; '' when absent. */
export async function readDataFile(path: string): Promise<{ exists: boolean; text: string }> {
  return fsOp<{ exists: boolean; text: string }>({ op: 'read', path });
}

/** Today's file of a stream, where LPA writes now. */
export function todaysLog(stream: string): string {
  return `logs/${stream}/${stream}-${new Date().toISOString().slice(0, 10)}.log`;
}

/**
 * The line of a log file that contains `needle`, once it is there. Log writes run after the answer
 * (waitUntil), so a test waits for its line rather than reading at once.
 */
export async function logLineWith(path: string, needle: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const line = (await readDataFile(path)).text.split('\n').find((l) => l.includes(needle));
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no line with ${needle} in ${path}`);
}

/** Whole seconds: file systems keep modification times at least that precisely. */
export const secondsAgo = (ms: number) => Math.floor((Date.now() - ms) / 1000) * 1000;

/**
 * The host port over a data root of the test's own (`<test data root>/<name>`), served by the real
 * host server over the Node implementation, for states of the log folders no other test file may see.
 */
export function privateHost(name: string): HostPort {
  return hostClient({
    fetch: (input, init) => testFs().fetch(input.replace(/^http:\/\/host\//, `http://fixtures/host/${name}/`), init),
  });
}
