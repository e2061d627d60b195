import { z } from 'zod';
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
