import { statfsSync } from 'node:fs';
import type { HostRoute } from './handler';

export function diskRoutes(dataRoot: string): HostRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/disk$/,
      handle: () => {
        const fs = statfsSync(dataRoot);
        return Response.json({ free_bytes: fs.bavail * fs.bsize });
      },
    },
  ];
}
