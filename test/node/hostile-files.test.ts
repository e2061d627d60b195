import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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

  const content = (name: string) => raw(svc.current.port, `/api/v1/automation/files/content?name=${encodeURIComponent(name)}`, { headers: svc.auth() });

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
    expect(listing.json.items.map((item: { name: string }) => item.name).filter((name: string) => planted.includes(name))).toEqual([]);

    const written = await raw(svc.current.port, '/api/v1/automation/files', {
      method: 'POST', headers: { ...svc.auth(), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'after.txt', base64: btoa('still answering') }),
    });
    expect(written.status).toBe(200);
    expect((await content('after.txt')).json).toEqual({ base64: btoa('still answering') });
  });
});
