import { z } from 'zod';
import { MemberEmail } from '../../storage/members/schema';
import { TeamId } from '../shared/schemas/team';
import { CREATE_TEAM } from '../shared/team-path';
import { defineContract } from './define';

export const TeamCreate = z.object({ team_id: TeamId, owner: MemberEmail }).strict().meta({ id: 'TeamCreate' });
export const Team = z.object({ team_id: z.string(), owner: z.string(), created_at: z.int() }).meta({ id: 'Team' });
export type Team = z.output<typeof Team>;

/**
 * The team service's own route, beside every team's (docs/teams.md#operators-and-teams): the operator
 * creates a team. Its bearer token is the secret `LPA_OPERATOR_TOKEN`, which opens no team's data.
 */
export const teams = {
  create: defineContract({
    // Declared beside the team path (src/shared/team-path.ts), which the front of `npm run start:team` reads too.
    method: CREATE_TEAM.method,
    path: CREATE_TEAM.path,
    home: 'team',
    tag: 'Teams',
    summary: "Create a team with its owner; the team's keys are made inside its Durable Object",
    access: 'admin',
    body: TeamCreate,
    status: 201,
    response: Team,
    errors: ['team.exists'],
  }),
};
