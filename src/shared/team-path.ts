/**
 * The team service's paths, declared once (docs/teams.md#routes): the operator's route, and
 * `/teams/{team_id}`, under which every team serves its API. Read by the team Worker
 * (src/teams/team-front.ts), by a machine's team link (./team-link.ts) and by the front of
 * `npm run start:team` (scripts/team-front.mjs), which Node loads as it is, stripping its types:
 * so this module imports nothing and holds only syntax that types can be stripped from.
 */

/** The longest team id, which its pattern implies: what the OpenAPI documents state as its `maxLength`. */
export const TEAM_ID_MAX_LENGTH = 63;

/** The characters of a team id, as a regular expression's source: the id alone (./schemas/team.ts `TeamId`), and inside a team's URL (./team-link.ts). */
export const TEAM_ID_PATTERN = `[a-z0-9-]{3,${TEAM_ID_MAX_LENGTH}}`;

/** Where the teams are: a team is `/teams/{team_id}`, its id one path segment. */
export const TEAMS_PATH = '/teams';

/** `/teams/{team_id}` with a valid id, as a regular expression's source: what a team's URL ends with (./team-link.ts). */
export const TEAM_PATH_PATTERN = `${TEAMS_PATH}/${TEAM_ID_PATTERN}`;

/**
 * Where a team's API is under `/teams/{team_id}`: its routes are declared with the local service's
 * paths, `/api/v1/…` (src/teams/routes.ts), and a joined machine sends the path of its local request
 * after the team's URL.
 */
export const TEAM_API_PATH = '/api/v1';

/** The operator's route, which creates a team: `teams.create` (src/contracts/teams.ts) is declared with its method and path. */
export const CREATE_TEAM = { method: 'POST', path: '/v1/teams' } as const;

/**
 * `/teams/{team_id}/api/v1…`: the id is the whole segment as written (any characters but `/`, `?`
 * and `#`, not decoded), the rest the team's API path; a query or fragment after the path is part of
 * neither. (No character of TEAMS_PATH or TEAM_API_PATH is special in a regular expression.)
 */
const TEAM_API = new RegExp(`^${TEAMS_PATH}/([^/?#]*)(${TEAM_API_PATH}(?:/[^?#]*)?)(?=[?#]|$)`);

/** A path under a team's API: the team's id as written, and the path its routes are declared with. */
export interface TeamPath {
  /** The segment after `/teams/`, not decoded and not checked: whether it names a team is `TeamId`'s to say (it may even be empty). */
  teamId: string;
  /** `/api/v1` or a path under it. */
  rest: string;
}

/**
 * Splits a request's path (`URL.pathname`) under a team's API, `/teams/{team_id}/api/v1…`, into the
 * team and the rest; null for every other path, a team's path outside its API included. The Worker
 * serves the rest in the team's pipeline; the front of several processes sends the request to the
 * process that holds the team.
 */
export function splitTeamPath(path: string): TeamPath | null {
  const match = TEAM_API.exec(path);
  return match ? { teamId: match[1]!, rest: match[2]! } : null;
}
