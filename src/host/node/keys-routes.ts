import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostRoute } from './host-route';

function readKey(path: string): Response {
  try {
    return Response.json({ key: readFileSync(path, 'utf8').trim() });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Response.json({ error: 'absent' }, { status: 404 });
    throw error;
  }
}

export function keyHostRoutes(dataRoot: string): HostRoute[] {
  const path = (name: string) => join(dataRoot, `${name}.key`);
  return [
    { method: 'GET', pattern: /^\/keys\/(vault|audit|audit-signing)$/, handle: (_, [name]) => readKey(path(name!)) },
    {
      method: 'POST',
      pattern: /^\/keys\/(vault|audit|audit-signing)$/,
      handle: (_, [name]) => {
        try {
          // 'wx': never replace a key that exists, even if two starts race.
          writeFileSync(path(name!), randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        return readKey(path(name!));
      },
    },
  ];
}
