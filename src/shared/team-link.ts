import { z } from 'zod';
import type { Environment } from './environment';
import { TEAM_PATH_PATTERN } from './team-path';

/**
 * How a machine names the team it joined: written by `lpa team join` (src/cli/commands/team.ts),
 * read by the launcher (src/runtimes/launcher/team-settings.ts); docs/teams.md#a-machine-in-a-team.
 */
export const TEAM_FILE = 'team.json';

/** `https://…/teams/<team_id>` (http only to this machine's own team service): the team's API is under it. */
export const TeamUrl = z
  .string()
  .regex(
    new RegExp(`^(https://[^/\\s?#]+|http://(127\\.0\\.0\\.1|localhost)(:\\d+)?)(/[^\\s?#]*)?${TEAM_PATH_PATTERN}$`),
    'a team URL is https://<host>/teams/<team_id>',
  );

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

/** Where a machine's link to its team is set: the files that hold its secrets, not the secrets. */
interface TeamLinkSettings {
  url: string;
  tokenFile: string;
  accessClientId: string | null;
  /** LPA_TEAM_ACCESS_CLIENT_SECRET itself, else the file of team.json's `access_client_secret_file`. */
  accessClientSecret: string | null;
  accessClientSecretFile: string | null;
}

/**
 * Where the link is set: LPA_TEAM_URL with LPA_TEAM_TOKEN_FILE (and the Access service token, when
 * Access asks for one) win over `team.json`, whose text (null when there is no such file) was read.
 */
function teamLinkSettings(
  env: Environment,
  teamFile: { path: string; text: string | null },
  invalid: TeamLinkReader['invalid'],
): TeamLinkSettings | null {
  let link: TeamFile;
  if (env.LPA_TEAM_URL) {
    if (!env.LPA_TEAM_TOKEN_FILE)
      throw invalid("LPA_TEAM_URL needs LPA_TEAM_TOKEN_FILE: the file that holds this machine's team token");
    link = { url: env.LPA_TEAM_URL, token_file: env.LPA_TEAM_TOKEN_FILE };
  } else if (teamFile.text !== null) {
    let json: unknown;
    try {
      json = JSON.parse(teamFile.text);
    } catch {
      throw invalid(`${teamFile.path} is not a team link: not JSON`);
    }
    const parsed = TeamFile.safeParse(json);
    if (!parsed.success)
      throw invalid(`${teamFile.path} is not a team link: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    link = parsed.data;
  } else {
    return null;
  }
  const url = TeamUrl.safeParse(link.url);
  if (!url.success) throw invalid(`LPA_TEAM_URL: "${link.url}" is not https://<host>/teams/<team_id>`);
  return {
    url: url.data,
    tokenFile: link.token_file,
    accessClientId: env.LPA_TEAM_ACCESS_CLIENT_ID || link.access_client_id || null,
    accessClientSecret: env.LPA_TEAM_ACCESS_CLIENT_SECRET || null,
    accessClientSecretFile: env.LPA_TEAM_ACCESS_CLIENT_SECRET ? null : (link.access_client_secret_file ?? null),
  };
}

/** How a caller reads the files a team link names, and the error it fails with (the launcher's, the CLI's). */
export interface TeamLinkReader {
  /** `team.json`'s text, or null when there is no such file. */
  teamFile(path: string): string | null;
  /** The text of a secret's file (the team token, the Access client secret), trimmed. */
  secret(path: string, what: string): string;
  /** The error for a link that is set but is not one; the message says which setting is wrong. */
  invalid(message: string): Error;
}

/** A machine's link to its team, its secrets read. */
export interface TeamLinkSecrets {
  /** `https://…/teams/<team_id>`. */
  url: string;
  token: string;
  accessClientId: string | null;
  accessClientSecret: string | null;
}

/**
 * The team this machine joined, or null when it is solo, with its secrets read from their files.
 * Read by the launcher, which forwards with it, and by `lpa team push`, which calls the team itself.
 */
export function readTeamLink(env: Environment, teamFilePath: string, files: TeamLinkReader): TeamLinkSecrets | null {
  const settings = teamLinkSettings(env, { path: teamFilePath, text: files.teamFile(teamFilePath) }, files.invalid);
  if (!settings) return null;
  return {
    url: settings.url,
    token: files.secret(settings.tokenFile, 'the team token'),
    accessClientId: settings.accessClientId,
    accessClientSecret:
      settings.accessClientSecret ??
      (settings.accessClientSecretFile
        ? files.secret(settings.accessClientSecretFile, 'the Access client secret')
        : null),
  };
}
