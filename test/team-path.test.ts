import { describe, expect, it } from 'vitest';
import { teams } from '../src/contracts/teams';
import { TeamId } from '../src/shared/schemas/team';
import { TeamUrl } from '../src/shared/team-link';
import {
  CREATE_TEAM,
  splitTeamPath,
  TEAM_API_PATH,
  TEAM_ID_PATTERN,
  TEAM_PATH_PATTERN,
  TEAMS_PATH,
} from '../src/shared/team-path';

/** The team service's paths, declared once (src/shared/team-path.ts) for the Worker, the local front and a machine's team URL. */
const SHORTEST = 'a-1';
const LONGEST = `t${'-'.repeat(61)}9`;

describe("the team service's paths", () => {
  it("splits a path under a team's API into the team and the path its routes are declared with", () => {
    expect(splitTeamPath('/teams/acme/api/v1/profiles')).toEqual({ teamId: 'acme', rest: '/api/v1/profiles' });
    expect(splitTeamPath('/teams/acme/api/v1')).toEqual({ teamId: 'acme', rest: '/api/v1' });
    expect(splitTeamPath('/teams/acme/api/v1/')).toEqual({ teamId: 'acme', rest: '/api/v1/' });
    expect(splitTeamPath('/teams/acme/api/v1/profiles/p1/accounts/a%2Fb')).toEqual({
      teamId: 'acme',
      rest: '/api/v1/profiles/p1/accounts/a%2Fb',
    });
    expect(splitTeamPath('/teams/acme/api/v1/audit/verify/teams/other/api/v1')).toEqual({
      teamId: 'acme',
      rest: '/api/v1/audit/verify/teams/other/api/v1',
    });
  });

  it("is null for every path outside a team's API, a team's own path included", () => {
    for (const path of [
      '',
      '/',
      '/status',
      '/v1/teams',
      '/api/v1/profiles',
      '/teams',
      '/teams/',
      '/teams/acme',
      '/teams/acme/',
      '/teams/acme/api',
      '/teams/acme/api/v10',
      '/teams/acme/api/v2/profiles',
      '/teams/acme/other/api/v1',
      '/teams/acme/api%2Fv1/profiles',
      '/teams//api',
      '/teamsacme/api/v1',
      '/TEAMS/acme/api/v1',
      '/x/teams/acme/api/v1',
      '//teams/acme/api/v1',
      'teams/acme/api/v1',
    ])
      expect(splitTeamPath(path), path).toBeNull();
  });

  it('takes the id as written, one segment, neither decoded nor checked: TeamId says whether it is one', () => {
    // An encoded slash is part of the segment: no second segment is made of it.
    expect(splitTeamPath('/teams/ac%2Fme/api/v1/profiles')).toEqual({ teamId: 'ac%2Fme', rest: '/api/v1/profiles' });
    expect(splitTeamPath('/teams/acme%2Fapi%2Fv1/api/v1')).toEqual({ teamId: 'acme%2Fapi%2Fv1', rest: '/api/v1' });
    // An empty segment is split too, and then refused as a team id (404 team.not_found, as before).
    expect(splitTeamPath('/teams//api/v1/profiles')).toEqual({ teamId: '', rest: '/api/v1/profiles' });
    for (const teamId of ['ac%2Fme', 'acme%2Fapi%2Fv1', '', 'ACME', 'acme.ops', 'ac'])
      expect(TeamId.safeParse(teamId).success, teamId).toBe(false);
  });

  it('splits ids at the limits of the id pattern, and TeamId takes exactly those within them', () => {
    expect(LONGEST).toHaveLength(63);
    for (const [teamId, valid] of [
      [SHORTEST, true],
      [LONGEST, true],
      ['ab', false],
      [`${LONGEST}0`, false],
    ] as const) {
      expect(splitTeamPath(`/teams/${teamId}/api/v1/version`), teamId).toEqual({ teamId, rest: '/api/v1/version' });
      expect(TeamId.safeParse(teamId).success, teamId).toBe(valid);
      expect(new RegExp(`^${TEAM_PATH_PATTERN}$`).test(`/teams/${teamId}`), teamId).toBe(valid);
      expect(TeamUrl.safeParse(`https://lpa.example.com/teams/${teamId}`).success, teamId).toBe(valid);
    }
  });

  it('leaves a trailing query or fragment out of the id and the rest', () => {
    expect(splitTeamPath('/teams/acme/api/v1/audit?limit=5&cursor=/teams/x')).toEqual({
      teamId: 'acme',
      rest: '/api/v1/audit',
    });
    expect(splitTeamPath('/teams/acme/api/v1?x=1')).toEqual({ teamId: 'acme', rest: '/api/v1' });
    expect(splitTeamPath('/teams/acme/api/v1/profiles#top')).toEqual({ teamId: 'acme', rest: '/api/v1/profiles' });
    expect(splitTeamPath('/teams/acme?/api/v1')).toBeNull();
    expect(splitTeamPath('/teams/acme/api/v1x?y')).toBeNull();
  });

  it("is what a team's URL ends with, a base path before it allowed", () => {
    expect(TEAM_PATH_PATTERN).toBe(`${TEAMS_PATH}/${TEAM_ID_PATTERN}`);
    expect(TeamUrl.safeParse('https://lpa.example.com/lpa/teams/acme').success).toBe(true);
    expect(TeamUrl.safeParse('https://lpa.example.com/teams/acme/').success).toBe(false);
    expect(TeamUrl.safeParse('https://lpa.example.com/teams/acme?x').success).toBe(false);
    expect(TeamUrl.safeParse('https://lpa.example.com/teams/ac%2Fme').success).toBe(false);
    expect(TeamUrl.safeParse('https://lpa.example.com/teams/').success).toBe(false);
    // A machine sends its local request's path after the URL: the Worker splits it back.
    expect(splitTeamPath(`${new URL('https://lpa.example.com/teams/acme').pathname}${TEAM_API_PATH}/profiles`)).toEqual(
      { teamId: 'acme', rest: '/api/v1/profiles' },
    );
  });

  it("declares the operator's route, which its contract is declared with", () => {
    expect(CREATE_TEAM).toEqual({ method: 'POST', path: '/v1/teams' });
    expect({ method: teams.create.method, path: teams.create.path }).toEqual(CREATE_TEAM);
    expect(splitTeamPath(CREATE_TEAM.path)).toBeNull();
  });
});
