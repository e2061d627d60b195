import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TeamLink } from '../../host/node/team';
import type { Environment } from '../../shared/environment';
import { TEAM_FILE, TeamLinkError, teamLinkSettings, type TeamLinkSettings } from '../../shared/team-link';
import { LaunchError } from './launch-error';

const MACHINE_FILE = 'machine-id';

const readSecret = (path: string, what: string): string => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new LaunchError(`${what} could not be read from ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
};

/** This machine's id, made once: the team's chain names the machine of each forwarded write by it. */
function machineId(dataRoot: string): string {
  const path = join(dataRoot, MACHINE_FILE);
  if (!existsSync(path)) writeFileSync(path, `${randomUUID()}\n`, { mode: 0o600, flag: 'wx' });
  return readFileSync(path, 'utf8').trim();
}

/**
 * The team this machine joined, or null when it is solo (src/shared/team-link.ts `teamLinkSettings`),
 * with its secrets read from their files and this machine's id.
 */
export function teamLink(env: Environment, dataRoot: string): TeamLink | null {
  const file = join(dataRoot, TEAM_FILE);
  let settings: TeamLinkSettings | null;
  try {
    settings = teamLinkSettings(env, { path: file, text: existsSync(file) ? readSecret(file, 'the team link') : null });
  } catch (error) {
    if (error instanceof TeamLinkError) throw new LaunchError(error.message);
    throw error;
  }
  if (!settings) return null;
  return {
    url: settings.url,
    token: readSecret(resolve(settings.tokenFile), 'the team token'),
    accessClientId: settings.accessClientId,
    accessClientSecret: settings.accessClientSecret ?? (settings.accessClientSecretFile ? readSecret(resolve(settings.accessClientSecretFile), 'the Access client secret') : null),
    machineId: machineId(dataRoot),
  };
}
