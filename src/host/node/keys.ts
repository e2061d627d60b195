import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromBase64 } from '../../shared/base64';
import { KeyName } from '../operations';
import { HostRefusal, type HostPort } from '../port';

function readKey(path: string): Uint8Array | null {
  try {
    return fromBase64(readFileSync(path, 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function nodeKeys(dataRoot: string): HostPort['keys'] {
  return {
    async read(name, create) {
      // The name becomes a path: checked here too, whoever calls.
      if (!KeyName.safeParse(name).success)
        throw new HostRefusal(`not a key name: ${JSON.stringify(String(name).slice(0, 40))}`);
      const path = join(dataRoot, `${name}.key`);
      try {
        // 'wx': never replace a key that exists, even if two starts race.
        if (create) writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      return readKey(path);
    },
  };
}
