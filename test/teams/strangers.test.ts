/**
 * The probe of #34's fourth finding, re-runnable: what a caller without valid credentials learns of a
 * team. The same requests go to a team that exists and to a well-formed id no operator created, and
 * their answers are compared as such a caller sees them: status, body and headers, request ids aside.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../../src/pipeline/throttle';
import { TEAM_TEST_OPERATOR_TOKEN } from './constants';
import { assertionFor, createTeam, teamCall, teamPath, teamToken, type TeamCallOptions } from './support';

const KNOWN = 'stranger-known';
const NEVER_MADE = 'stranger-never-made';

type Answer = Awaited<ReturnType<typeof teamCall>>;

/** An answer as the caller sees it, less what differs from one request to the next (its request id). */
const seen = (answer: Answer) => ({
  status: answer.status,
  body: answer.json === undefined ? undefined : { ...answer.json, request_id: undefined },
  headers: [...answer.headers].filter(([name]) => name !== 'x-request-id'),
});

describe('a caller without valid credentials, to a team', () => {
  it('gets the same answers from a team that exists and from one no operator created, none with its chain head', async () => {
    const { owner } = await createTeam(KNOWN);
    const other = await createTeam('stranger-other');
    const otherToken = (await teamToken(other.teamId, other.owner, [], true)).token;
    // The team that exists has a history: a profile its owner made.
    expect(
      (
        await teamCall(teamPath(KNOWN, '/profiles'), {
          method: 'POST',
          assertion: await assertionFor(owner),
          body: { name: 'kept' },
        })
      ).status,
    ).toBe(201);

    const clientIp = '198.51.100.40';
    const probes: [string, string, () => Promise<TeamCallOptions>][] = [
      ['no credentials', '/profiles', async () => ({})],
      ['a made-up token', '/profiles', async () => ({ token: 'lpa_made-up-token-0123456789' })],
      ['a token too long to be one', '/profiles', async () => ({ token: `lpa_${'x'.repeat(600)}` })],
      ['the operator token', '/profiles', async () => ({ token: TEAM_TEST_OPERATOR_TOKEN })],
      ["another team's token", '/profiles', async () => ({ token: otherToken })],
      [
        "another team's owner through Access",
        '/profiles',
        async () => ({ assertion: await assertionFor(other.owner) }),
      ],
      ['a stranger through Access', '/profiles', async () => ({ assertion: await assertionFor('who@else.example') })],
      ['a forged assertion', '/profiles', async () => ({ assertion: await assertionFor(owner, { key: 'stranger' }) })],
      ['an expired assertion', '/profiles', async () => ({ assertion: await assertionFor(owner, { expiresIn: -60 }) })],
      ['a write without credentials', '/profiles', async () => ({ method: 'POST', body: { name: 'x' } })],
      ['a deletion with a made-up token', '/members/a@b.example', async () => ({ method: 'DELETE', token: 'lpa_x' })],
      ['the audit log', '/audit/verify', async () => ({})],
      ['a path no route has', '/nothing-here', async () => ({})],
      ['HEAD', '/profiles', async () => ({ method: 'HEAD' })],
      ['a page of a foreign origin', '/profiles', async () => ({ headers: { origin: 'https://evil.example' } })],
    ];
    const differences: string[] = [];
    const withHead: string[] = [];
    for (const [name, path, options] of probes) {
      const [known, neverMade] = [
        await teamCall(teamPath(KNOWN, path), { ...(await options()), clientIp }),
        await teamCall(teamPath(NEVER_MADE, path), { ...(await options()), clientIp }),
      ];
      if (JSON.stringify(seen(known)) !== JSON.stringify(seen(neverMade)))
        differences.push(`${name}: ${JSON.stringify(seen(known))} vs ${JSON.stringify(seen(neverMade))}`);
      for (const answer of [known, neverMade]) if (answer.headers.has('x-lpa-team-head')) withHead.push(name);
      expect(known.status, name).toBeGreaterThanOrEqual(400);
    }

    // Guessing tokens: the same budget, spent the same way, then the same block.
    const guesses = async (teamId: string, ip: string) => {
      const statuses: number[] = [];
      for (let i = 0; i <= MAX_FAILURES; i++)
        statuses.push(
          (await teamCall(teamPath(teamId, '/profiles'), { token: `lpa_guess-${i}`, clientIp: ip })).status,
        );
      return statuses;
    };
    const [knownGuesses, neverMadeGuesses] = [
      await guesses(KNOWN, '198.51.100.41'),
      await guesses(NEVER_MADE, '198.51.100.42'),
    ];
    expect(knownGuesses).toEqual([...Array<number>(MAX_FAILURES).fill(401), 429]);

    console.log(
      `#34 finding 4, the probe: ${probes.length} requests and ${MAX_FAILURES + 1} guesses to each team, ` +
        `${differences.length} answers that differ, ${withHead.length} with X-LPA-Team-Head`,
    );
    expect(differences).toEqual([]);
    expect(withHead).toEqual([]);
    expect(neverMadeGuesses).toEqual(knownGuesses);
  });

  it('gives the chain head to a request it lets in, its errors included, and none to one whose scopes it refuses', async () => {
    const { teamId, owner } = await createTeam('stranger-member');
    const reader = await teamToken(teamId, owner, ['profiles:read']);
    const allowed = await teamCall(teamPath(teamId, '/profiles'), { token: reader.token });
    const missing = await teamCall(teamPath(teamId, '/profiles/no-such-profile'), { token: reader.token });
    const refused = await teamCall(teamPath(teamId, '/audit/verify'), { token: reader.token });
    expect([allowed.status, missing.status, refused.status]).toEqual([200, 404, 403]);
    for (const answer of [allowed, missing])
      expect(answer.headers.get('x-lpa-team-head')).toMatch(/^\d+,[0-9a-f]{64}$/);
    expect(refused.headers.get('x-lpa-team-head')).toBeNull();
  });

  it('answers 404 team.not_found for an id that is no team id, which tells nothing of any team', async () => {
    for (const teamId of ['UPPER', 'ab', 'a_b', 'x'.repeat(64)]) {
      const answer = await teamCall(`/teams/${teamId}/api/v1/profiles`);
      expect(answer.status, teamId).toBe(404);
      expect(answer.json.error.code).toBe('team.not_found');
      expect(answer.headers.get('x-lpa-team-head')).toBeNull();
    }
  });
});
