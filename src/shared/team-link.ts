import { z } from 'zod';
import type { Environment } from './environment';
import { TEAM_ID_PATTERN } from './schemas/team';

/**
 * How a machine names the team it joined: written by `lpa team join` (src/cli/commands/team.ts),
 * read by the launcher (src/runtimes/launcher/team-settings.ts); docs/teams.md#a-machine-in-a-team.
 */
export const TEAM_FILE = 'team.json';

/** `https://…/teams/<team_id>` (http only to this machine's own team service): the team's API is under it. */
export const TeamUrl = z
  .string()
  .regex(
    new RegExp(`^(https://[^/\\s?#]+|http://(127\\.0\\.0\\.1|localhost)(:\\d+)?)(/[^\\s?#]*)?/teams/${TEAM_ID_PATTERN}$`),
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
export interface TeamLinkSettings {
  url: string;
  tokenFile: string;
  accessClientId: string | null;
  /** LPA_TEAM_ACCESS_CLIENT_SECRET itself, else the file of team.json's `access_client_secret_file`. */
  accessClientSecret: string | null;
  accessClientSecretFile: string | null;
}

/** A team link that is set but is not one; its message says which setting is wrong. */
export class TeamLinkError extends Error {}

/**
 * The team this machine joined, or null when it is solo: LPA_TEAM_URL with LPA_TEAM_TOKEN_FILE (and
 * the Access service token, when Access asks for one) win over `team.json`, whose text (null when
 * there is no such file) the caller read. Read by the launcher, which forwards with it, and by
 * `lpa team push`, which calls the team itself.
 */
export function teamLinkSettings(env: Environment, teamFile: { path: string; text: string | null }): TeamLinkSettings | null {
  let link: TeamFile;
  if (env.LPA_TEAM_URL) {
    if (!env.LPA_TEAM_TOKEN_FILE) throw new TeamLinkError("LPA_TEAM_URL needs LPA_TEAM_TOKEN_FILE: the file that holds this machine's team token");
    link = { url: env.LPA_TEAM_URL, token_file: env.LPA_TEAM_TOKEN_FILE };
  } else if (teamFile.text !== null) {
    let json: unknown;
    try {
      json = JSON.parse(teamFile.text);
    } catch {
      throw new TeamLinkError(`${teamFile.path} is not a team link: not JSON`);
    }
    const parsed = TeamFile.safeParse(json);
    if (!parsed.success) throw new TeamLinkError(`${teamFile.path} is not a team link: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    link = parsed.data;
  } else {
    return null;
  }
  const url = TeamUrl.safeParse(link.url);
  if (!url.success) throw new TeamLinkError(`LPA_TEAM_URL: "${link.url}" is not https://<host>/teams/<team_id>`);
  return {
    url: url.data,
    tokenFile: link.token_file,
    accessClientId: env.LPA_TEAM_ACCESS_CLIENT_ID || link.access_client_id || null,
    accessClientSecret: env.LPA_TEAM_ACCESS_CLIENT_SECRET || null,
    accessClientSecretFile: env.LPA_TEAM_ACCESS_CLIENT_SECRET ? null : (link.access_client_secret_file ?? null),
  };
}
