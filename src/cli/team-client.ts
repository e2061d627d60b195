import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { environmentOf, type ProcessVars } from '../shared/environment';
import { TEAM_FILE, TeamLinkError, teamLinkSettings } from '../shared/team-link';
import { ApiCallError, ApiClient } from './client';
import { dataRootOf } from './data-root';

/** The text of a secret's file, trimmed: a file that cannot be read or holds nothing is a local failure (exit 1). */
export function readSecret(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new ApiCallError(0, 'cli.file_unreadable', `${path}: ${(error as Error).message}`);
  }
  if (!text) throw new ApiCallError(0, 'cli.value_missing', `${path} is empty`);
  return text;
}

/**
 * The team this machine joined, called directly with its team token and, when set, the Access
 * service token's headers: the link the service forwards with (LPA_TEAM_URL + LPA_TEAM_TOKEN_FILE,
 * else `<data root>/team.json`; src/shared/team-link.ts). `lpa team push` writes to the team itself,
 * since the machine's service forwards only the routes a machine serves.
 */
export function teamClient(vars: ProcessVars): ApiClient {
  const file = join(dataRootOf(vars), TEAM_FILE);
  let settings;
  try {
    settings = teamLinkSettings(environmentOf(vars), { path: file, text: existsSync(file) ? readFileSync(file, 'utf8') : null });
  } catch (error) {
    if (error instanceof TeamLinkError) throw new ApiCallError(0, 'cli.team_link_invalid', error.message);
    throw error;
  }
  if (!settings) throw new ApiCallError(0, 'cli.team_not_joined', `this machine has joined no team: \`lpa team join\` (${file}) or LPA_TEAM_URL with LPA_TEAM_TOKEN_FILE`);
  const secret = settings.accessClientSecret ?? (settings.accessClientSecretFile ? readSecret(resolve(settings.accessClientSecretFile)) : null);
  const access: Record<string, string> =
    settings.accessClientId && secret ? { 'cf-access-client-id': settings.accessClientId, 'cf-access-client-secret': secret } : {};
  return new ApiClient(settings.url, readSecret(resolve(settings.tokenFile)), 'cli', access);
}
