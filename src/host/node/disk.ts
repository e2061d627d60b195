import { statfsSync } from 'node:fs';
import type { HostPort } from '../port';

export function nodeDisk(dataRoot: string): HostPort['disk'] {
  return {
    async free() {
      const fs = statfsSync(dataRoot);
      return fs.bavail * fs.bsize;
    },
  };
}
