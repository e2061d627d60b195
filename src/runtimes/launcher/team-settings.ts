import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TeamLink } from '../../host/node/team';
import type { Environment } from '../../shared/environment';
import { LaunchError } from './launch-error';

/** Where `lpa team join` writes the link (docs/teams.md#a-machine-in-a-team); the LPA_TEAM_* variables override it. */
export const TEAM_FILE = 'team.json';
const MACHINE_FILE = 'machine-id';

/** `https://…/teams/<team_id>` (http only to this machine's own team service): the team's API is under it. */
export const TeamUrl = z
  .string()
  .regex(/^(https:\/\/[^/\s?#]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)(\/[^\s?#]*)?\/teams\/[a-z0-9-]{3,63}$/, 'a team URL is https://<host>/teams/<team_id>');

/** What `lpa team join` writes: the link without any secret; the secrets stay in their own files. */
export const TeamFile = z
  .object({
    url: TeamUrl,
    token_file: z.string().min(1),
    access_client_id: z.string().min(1).optional(),
    access_client_secret_file: z.string().min(1).optional(),
  })
  .strict();
export type TeamFile = z.output<typeof TeamFile>;

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
