import { CoreStatus, Reachability, Versions } from '../../storage/system/schema';
import { defineContract } from './define';

/** What needs no store: every entry's front answers it itself (src/runtimes/service.ts, src/teams/team-front.ts). */
export const reachability = {
  reachability: defineContract({
    method: 'GET',
    path: '/status',
    home: 'local',
    tag: 'System',
    summary: 'Reachability check; needs no token',
    access: 'public',
    response: Reachability,
  }),
};

export const system = {
  version: defineContract({
    method: 'GET',
    path: '/api/v1/version',
    home: 'team',
    tag: 'System',
    summary: 'Application, API and database versions',
    response: Versions,
  }),
  status: defineContract({
    method: 'GET',
    path: '/api/v1/system/status',
    home: 'local',
    tag: 'System',
    summary: 'Core status: store, disk, vault and the address the API is served on',
    response: CoreStatus,
  }),
};
