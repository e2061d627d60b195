import { describe, expect, it } from 'vitest';
import type { Environment } from '../src/shared/environment';
import { readTeamLink, type TeamLinkReader } from '../src/shared/team-link';

/** A machine's link to its team as the launcher and `lpa team push` read it (src/shared/team-link.ts). */
const TEAM_URL = 'https://lpa.example.com/teams/acme-ops';
const TEAM_FILE = '/data/team.json';

class LinkInvalid extends Error {}

/** The files a link may name, and which of them were read, as what: a reader like the launcher's, over a map. */
function reader(files: Record<string, string>): TeamLinkReader & { read: string[] } {
  const read: string[] = [];
  return {
    read,
    teamFile: (path) => files[path] ?? null,
    secret: (path, what) => {
      read.push(`${what}: ${path}`);
      const text = files[path];
      if (text === undefined) throw new Error(`${what} could not be read from ${path}`);
      return text.trim();
    },
    invalid: (message) => new LinkInvalid(message),
  };
}

const link = (env: Environment, files: Record<string, string>) => readTeamLink(env, TEAM_FILE, reader(files));
const invalid = (env: Environment, files: Record<string, string>) => {
  try {
    link(env, files);
  } catch (error) {
    expect(error).toBeInstanceOf(LinkInvalid);
    return (error as Error).message;
  }
  throw new Error('the link was taken');
};

describe("a machine's team link", () => {
  it('is null on a solo machine, and reads no secret', () => {
    const files = reader({});
    expect(readTeamLink({}, TEAM_FILE, files)).toBeNull();
    expect(files.read).toEqual([]);
  });

  it('comes from team.json, with the token and the Access client secret read from the files it names', () => {
    const files = reader({
      [TEAM_FILE]: JSON.stringify({
        url: TEAM_URL,
        token_file: '/keys/team.token',
        access_client_id: 'id.access',
        access_client_secret_file: '/keys/access.secret',
      }),
      '/keys/team.token': 'lpa_team_token\n',
      '/keys/access.secret': 'shh\n',
    });
    expect(readTeamLink({}, TEAM_FILE, files)).toEqual({
      url: TEAM_URL,
      token: 'lpa_team_token',
      accessClientId: 'id.access',
      accessClientSecret: 'shh',
    });
    expect(files.read).toEqual(['the team token: /keys/team.token', 'the Access client secret: /keys/access.secret']);
  });

  it('takes LPA_TEAM_URL and its token file over team.json, and the Access secret from the environment without reading a file', () => {
    const env: Environment = {
      LPA_TEAM_URL: TEAM_URL,
      LPA_TEAM_TOKEN_FILE: '/keys/other.token',
      LPA_TEAM_ACCESS_CLIENT_ID: 'env.access',
      LPA_TEAM_ACCESS_CLIENT_SECRET: 'from env',
    };
    const files = reader({
      [TEAM_FILE]: JSON.stringify({ url: 'https://elsewhere.example/teams/other', token_file: '/keys/team.token' }),
      '/keys/other.token': 'other',
    });
    expect(readTeamLink(env, TEAM_FILE, files)).toEqual({
      url: TEAM_URL,
      token: 'other',
      accessClientId: 'env.access',
      accessClientSecret: 'from env',
    });
    expect(files.read).toEqual(['the team token: /keys/other.token']);
  });

  it("fails with the caller's own error, naming the setting, for a link that is set but is not one", () => {
    expect(invalid({ LPA_TEAM_URL: TEAM_URL }, {})).toMatch(/LPA_TEAM_URL needs LPA_TEAM_TOKEN_FILE/);
    expect(invalid({ LPA_TEAM_URL: 'https://lpa.example.com/api/v1', LPA_TEAM_TOKEN_FILE: '/t' }, {})).toMatch(
      /is not https:\/\/<host>\/teams\/<team_id>/,
    );
    expect(invalid({}, { [TEAM_FILE]: '{not json' })).toBe(`${TEAM_FILE} is not a team link: not JSON`);
    expect(invalid({}, { [TEAM_FILE]: JSON.stringify({ url: TEAM_URL }) })).toMatch(
      new RegExp(`^${TEAM_FILE} is not a team link: `),
    );
    expect(
      invalid({}, { [TEAM_FILE]: JSON.stringify({ url: 'http://203.0.113.9/teams/acme-ops', token_file: '/t' }) }),
    ).toMatch(/a team URL is https:\/\/<host>\/teams\/<team_id>/);
  });
});
