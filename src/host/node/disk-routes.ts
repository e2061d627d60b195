import { statfsSync } from 'node:fs';
import type { HostRoute } from './host-route';

export function diskHostRoutes(dataRoot: string): HostRoute[] {
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
