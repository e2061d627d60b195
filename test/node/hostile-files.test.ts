import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { raw, useService, type Runtime } from './service';

/**
 * What another program can put in the automation folder, against the service as it runs: on Bun the
 * host port runs in the service's own process, so an open that waits (a FIFO) would freeze it all.
 */
describe.each<Runtime>(['workerd', 'bun'])('the automation folder of the service on %s', (runtime) => {
  const svc = useService(runtime);
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  const content = (name: string) =>
    raw(svc.current.port, `/api/v1/automation/files/content?name=${encodeURIComponent(name)}`, { headers: svc.auth() });

  it('refuses a FIFO, a socket, a folder, a link and a second name of a file outside, and answers on', async () => {
    const folder = join(svc.current.dataRoot, 'automation-files');
    const secret = `outside-secret-${crypto.randomUUID()}`;
    writeFileSync(join(svc.current.dataRoot, 'outside.key'), secret);
    execFileSync('mkfifo', [join(folder, 'fifo.txt')]);
    linkSync(join(svc.current.dataRoot, 'outside.key'), join(folder, 'hard-link.txt'));
    symlinkSync('../outside.key', join(folder, 'symlink.txt'));
    mkdirSync(join(folder, 'folder.txt'));
    const socket = createServer();
    servers.push(socket);
    await new Promise<void>((resolve) => socket.listen(join(folder, 'socket.txt'), resolve));
    const planted = ['fifo.txt', 'socket.txt', 'folder.txt', 'symlink.txt', 'hard-link.txt'];

    for (const name of planted) {
      const res = await content(name);
      expect(res.status).toBe(404);
      expect(res.json.error).toMatchObject({ code: 'resource.not_found', details: { resource: 'file', name } });
      expect(res.text).not.toContain(secret);
    }
    const listing = await raw(svc.current.port, '/api/v1/automation/files', { headers: svc.auth() });
    expect(listing.status).toBe(200);
    expect(
      listing.json.items.map((item: { name: string }) => item.name).filter((name: string) => planted.includes(name)),
    ).toEqual([]);

    const written = await raw(svc.current.port, '/api/v1/automation/files', {
      method: 'POST',
      headers: { ...svc.auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after.txt', base64: btoa('still answering') }),
    });
    expect(written.status).toBe(200);
    expect((await content('after.txt')).json).toEqual({ base64: btoa('still answering') });
  });
  it('refuses a folder that is a link to the data root or outside it: lists, reads and writes nothing there, and core status warns', async () => {
    const root = svc.current.dataRoot;
    const folder = join(root, 'automation-files');
    const outside = mkdtempSync(join(tmpdir(), 'lpa-outside-'));
    writeFileSync(join(outside, 'outside.txt'), `outside-secret-${crypto.randomUUID()}`);
    renameSync(folder, join(root, 'automation-files.real'));
    try {
      for (const target of [root, outside]) {
        symlinkSync(target, folder);
        const listing = await raw(svc.current.port, '/api/v1/automation/files', { headers: svc.auth() });
        expect([listing.status, listing.json.error.code]).toEqual([503, 'files.folder_refused']);
        for (const name of ['vault.key', 'outside.txt']) {
          const read = await content(name);
          expect([read.status, read.json.error.code]).toEqual([503, 'files.folder_refused']);
        }
        const written = await raw(svc.current.port, '/api/v1/automation/files', {
          method: 'POST',
          headers: { ...svc.auth(), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'planted.txt', base64: btoa('x') }),
        });
        expect([written.status, written.json.error.code]).toEqual([503, 'files.folder_refused']);
        const status = await raw(svc.current.port, '/api/v1/system/status', { headers: svc.auth() });
        expect(status.json.mode).toBe('degraded');
        expect(status.json.warnings).toContainEqual(
          expect.stringMatching(/^automation folder .*automation-files is a link/),
        );
        unlinkSync(folder);
      }
      expect(existsSync(join(root, 'planted.txt')) || existsSync(join(outside, 'planted.txt'))).toBe(false);
    } finally {
      renameSync(join(root, 'automation-files.real'), folder);
    }
    expect((await raw(svc.current.port, '/api/v1/automation/files', { headers: svc.auth() })).status).toBe(200);
  });
});
