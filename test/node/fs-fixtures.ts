import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { nodeHost } from '../../src/host/node/node-host';
import { hostServer, type HostHandler } from '../../src/host/node/server';
import type { FixtureOp } from '../support/fixture-ops';

/**
 * A test-only service binding (TEST_FS in vitest.config.ts) over the test data root: it plants the
 * files, links and broken folders that request-level tests need, and reads back what LPA wrote.
 * Under `/host/<name>/` it serves the host port over the data root `<test data root>/<name>`.
 */
export function createFixtureHandler(dataRoot: string): (request: Request) => Promise<Response> {
  const inRoot = (path: string) => {
    const full = join(dataRoot, path);
    if (relative(dataRoot, full).startsWith('..')) throw new Error(`fixture path outside the data root: ${path}`);
    return full;
  };
  const privateHosts = new Map<string, HostHandler>();
  return async (request) => {
    const url = new URL(request.url);
    const forward = /^\/host\/([a-z0-9-]+)(\/.*)$/.exec(url.pathname);
    if (forward) {
      // The real host server over a data root of the test's own, for states no other test may see.
      const [, name, rest] = forward as unknown as [string, string, string];
      if (!privateHosts.has(name)) privateHosts.set(name, hostServer(nodeHost(inRoot(name))));
      const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer();
      return privateHosts.get(name)!(
        new Request(`http://host${rest}${url.search}`, { method: request.method, headers: request.headers, body }),
      );
    }
    const op = (await request.json()) as FixtureOp;
    const path = inRoot(op.path);
    switch (op.op) {
      case 'write':
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, op.text.repeat(op.repeat ?? 1));
        if (op.mtime !== undefined) utimesSync(path, op.mtime / 1000, op.mtime / 1000);
        break;
      case 'symlink':
        symlinkSync(op.target, path);
        break;
      case 'link':
        linkSync(inRoot(op.target), path);
        break;
      case 'fifo':
        execFileSync('mkfifo', [path]);
        break;
      case 'read':
        return Response.json(
          existsSync(path) ? { exists: true, text: readFileSync(path, 'utf8') } : { exists: false, text: '' },
        );
      case 'remove':
        rmSync(path, { recursive: true, force: true });
        break;
    }
    return Response.json({ ok: true });
  };
}
