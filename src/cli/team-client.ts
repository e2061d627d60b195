import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { environmentOf, type ProcessVars } from '../shared/environment';
import { readTeamLink, TEAM_FILE } from '../shared/team-link';
import { ApiCallError, ApiClient } from './client';
import { dataRootOf } from './data-root';

/**
 * The text of a secret's file, trimmed (`-`: standard input, where one is allowed): a file that
 * cannot be read or holds nothing is a local failure (exit 1).
 */
export function readSecret(path: string): string {
  const name = path === '-' ? 'standard input' : path;
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8').trim();
  } catch (error) {
    throw new ApiCallError(0, 'cli.file_unreadable', `${name}: ${(error as Error).message}`);
  }
  if (!text) throw new ApiCallError(0, 'cli.value_missing', `${name} is empty`);
  return text;
}

/**
 * The team this machine joined, called directly with its team token and, when set, the Access
 * service token's headers: the link the service forwards with (LPA_TEAM_URL + LPA_TEAM_TOKEN_FILE,
 * else `<data root>/team.json`; src/shared/team-link.ts). `lpa team push` writes to the team itself,
 * since the machine's service forwards only the routes a machine serves. `token`, when given, stands
 * in for the link's team token (`lpa team push --admin-token-file`).
 */
export function teamClient(vars: ProcessVars, token?: string): ApiClient {
  const file = join(dataRootOf(vars), TEAM_FILE);
  const link = readTeamLink(environmentOf(vars), file, {
    teamFile: (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
    secret: (path) => readSecret(resolve(path)),
    invalid: (message) => new ApiCallError(0, 'cli.team_link_invalid', message),
  });
  if (!link)
    throw new ApiCallError(
      0,
      'cli.team_not_joined',
      `this machine has joined no team: \`lpa team join\` (${file}) or LPA_TEAM_URL with LPA_TEAM_TOKEN_FILE`,
    );
  const access: Record<string, string> =
    link.accessClientId && link.accessClientSecret
      ? { 'cf-access-client-id': link.accessClientId, 'cf-access-client-secret': link.accessClientSecret }
      : {};
  return new ApiClient(link.url, token ?? link.token, 'cli', access);
}
