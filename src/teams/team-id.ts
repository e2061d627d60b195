import type { TeamId } from '../shared/schemas/team';

export { TeamId } from '../shared/schemas/team';

/** The name of a team's Durable Object: one store per team. */
export const teamStoreKey = (teamId: TeamId): string => `team:${teamId}`;

/** Where a team's objects live in the bucket: nothing of one team is under another's prefix. */
export const teamPrefix = (teamId: TeamId): string => `teams/${teamId}/`;
