import { z } from 'zod';
import { TEAM_ID_MAX_LENGTH, TEAM_ID_PATTERN } from '../team-path';

/** A team's id, as it appears in `/teams/{team_id}/…`: lower-case letters, digits and hyphens. */
export const TeamId = z
  .string()
  .max(TEAM_ID_MAX_LENGTH)
  .regex(new RegExp(`^${TEAM_ID_PATTERN}$`), 'A team id is 3 to 63 of a-z, 0-9 and -')
  .meta({ description: 'The team id: 3 to 63 lower-case letters, digits and hyphens.' });
export type TeamId = z.output<typeof TeamId>;

/** The header that carries the team chain's head on every answer of a team (docs/teams.md#audit-across-machines). */
export const TEAM_HEAD_HEADER = 'x-lpa-team-head';

/** `X-LPA-Team-Head`'s value, `<seq>,<hash>`: what a machine parses (storage/witness) and what the OpenAPI document states. */
export const TEAM_HEAD_VALUE = /^[0-9]{1,15},[0-9a-f]{64}$/;

/** A head as that header's value. */
export const teamHeadValue = (head: { seq: number; hash: string }): string => `${head.seq},${head.hash}`;
