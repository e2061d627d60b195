import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TeamLink } from '../../host/node/team-link';
import type { Environment } from '../../shared/environment';
import { readTeamLink, TEAM_FILE } from '../../shared/team-link';
import { LaunchError } from './launch-error';

const MACHINE_FILE = 'machine-id';

const readSecret = (path: string, what: string): string => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new LaunchError(
      `${what} could not be read from ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
};

/** This machine's id, made once: the team's chain names the machine of each forwarded write by it. */
function machineId(dataRoot: string): string {
  const path = join(dataRoot, MACHINE_FILE);
  if (!existsSync(path)) writeFileSync(path, `${randomUUID()}\n`, { mode: 0o600, flag: 'wx' });
  return readFileSync(path, 'utf8').trim();
}

/** The team this machine joined (src/shared/team-link.ts `readTeamLink`) with this machine's id, or null when it is solo. */
export function teamLink(env: Environment, dataRoot: string): TeamLink | null {
  const link = readTeamLink(env, join(dataRoot, TEAM_FILE), {
    teamFile: (path) => (existsSync(path) ? readSecret(path, 'the team link') : null),
    secret: (path, what) => readSecret(resolve(path), what),
    invalid: (message) => new LaunchError(message),
  });
  return link && { ...link, machineId: machineId(dataRoot) };
}
