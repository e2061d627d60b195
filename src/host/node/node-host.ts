import { mkdirSync } from 'node:fs';
import type { HostPort } from '../port';
import { nodeDisk } from './disk';
import { nodeFiles } from './files';
import { nodeKeys } from './keys';
import { nodeLogs } from './logs';
import { nodeSeals } from './seals';
import { nodeTeam, type TeamLink } from './team-link';

/**
 * The machine side of the host port: plain functions over the data root, one module per concern.
 * Bun and Deno call it directly; for workerd the launcher serves it (server.ts) on a unix socket,
 * and the tests hand the same server to Miniflare as a service binding, so they exercise this code.
 */
export function nodeHost(dataRoot: string, team: TeamLink | null = null): HostPort {
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  return {
    disk: nodeDisk(dataRoot),
    keys: nodeKeys(dataRoot),
    files: nodeFiles(dataRoot),
    logs: nodeLogs(dataRoot),
    seals: nodeSeals(dataRoot),
    team: nodeTeam(team),
  };
}
