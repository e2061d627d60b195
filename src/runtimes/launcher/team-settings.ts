import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TeamLink } from '../../host/node/team';
import type { Environment } from '../../shared/environment';
import { TEAM_FILE, TeamFile, TeamUrl } from '../../shared/team-link';
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
 * The team this machine joined, or null when it is solo: LPA_TEAM_URL with LPA_TEAM_TOKEN_FILE (and
 * the Access service token, when Access asks for one), else the data root's team.json.
 */
export function teamLink(env: Environment, dataRoot: string): TeamLink | null {
  const file = join(dataRoot, TEAM_FILE);
  let link: TeamFile;
  if (env.LPA_TEAM_URL) {
    if (!env.LPA_TEAM_TOKEN_FILE) throw new LaunchError('LPA_TEAM_URL needs LPA_TEAM_TOKEN_FILE: the file that holds this machine\'s team token');
    link = { url: env.LPA_TEAM_URL, token_file: env.LPA_TEAM_TOKEN_FILE };
  } else if (existsSync(file)) {
    const parsed = TeamFile.safeParse(JSON.parse(readSecret(file, 'the team link')));
    if (!parsed.success) throw new LaunchError(`${file} is not a team link: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    link = parsed.data;
  } else {
    return null;
  }
  const url = TeamUrl.safeParse(link.url);
  if (!url.success) throw new LaunchError(`LPA_TEAM_URL: "${link.url}" is not https://<host>/teams/<team_id>`);
  const accessClientId = env.LPA_TEAM_ACCESS_CLIENT_ID || link.access_client_id || null;
  const accessSecret = env.LPA_TEAM_ACCESS_CLIENT_SECRET || (link.access_client_secret_file ? readSecret(resolve(link.access_client_secret_file), 'the Access client secret') : null);
  return {
    url: url.data,
    token: readSecret(resolve(link.token_file), 'the team token'),
    accessClientId,
    accessClientSecret: accessSecret,
    machineId: machineId(dataRoot),
  };
}
