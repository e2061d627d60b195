import { describe, expect, it } from 'vitest';
import { MAX_OPEN_WINDOWS } from '../../storage/audit/denials';
import { MAX_FAILURES } from '../../src/pipeline/throttle';
import { TEAM_TEST_OPERATOR_TOKEN } from './constants';
import { assertionFor, createTeam, inTeamObject, teamCall, teamPath, teamToken } from './support';

const guess = () => `lpa_guess-${crypto.randomUUID()}`;

/** Bad tokens from `clientIp` to `path` until one is refused with something other than 401; the statuses. */
async function guessUntilRefused(path: string, clientIp: string, init: { method?: string; body?: unknown } = {}) {
  const statuses: number[] = [];
  for (let i = 0; i <= MAX_FAILURES + 1; i++) {
    const res = await teamCall(path, { ...init, token: guess(), clientIp });
    statuses.push(res.status);
    if (res.status !== 401) return { statuses, last: res };
  }
  throw new Error(`never refused: ${statuses.join(' ')}`);
}

/** The audit entry a request wrote in its team's chain, read in the team's object. */
const entryOf = (teamId: string, requestId: string) =>
  inTeamObject(teamId, (_instance, state) =>
    state.storage.sql
      .exec<{
        action: string;
        actor_type: string;
        actor_id: string | null;
        actor_label: string;
        error_code: string;
        details: string;
      }>(
        'SELECT action, actor_type, actor_id, actor_label, error_code, details FROM audit_log WHERE request_id = ?',
        requestId,
      )
      .toArray(),
  );

describe('failed authentications, throttled per team and client by the Rate Limiting binding', () => {
  it(`blocks a client after ${MAX_FAILURES} bad tokens to one team, with Retry-After, and no other team or client`, async () => {
    const a = await createTeam('throttle-a');
    const b = await createTeam('throttle-b');
    const [adminA, adminB] = [
      await teamToken(a.teamId, a.owner, [], true),
      await teamToken(b.teamId, b.owner, [], true),
    ];
    const attacker = '203.0.113.66';

    const { statuses, last } = await guessUntilRefused(teamPath(a.teamId, '/profiles'), attacker);
    expect(statuses).toEqual([...Array<number>(MAX_FAILURES).fill(401), 429]);
    expect(last.json.error.code).toBe('auth.throttled');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // Blocked before its token is looked at: even a good one.
    expect((await teamCall(teamPath(a.teamId, '/profiles'), { token: adminA.token, clientIp: attacker })).status).toBe(
      429,
    );

    // The same client on team B: its own budget, untouched.
    expect((await teamCall(teamPath(b.teamId, '/profiles'), { token: adminB.token, clientIp: attacker })).status).toBe(
      200,
    );
    expect((await teamCall(teamPath(b.teamId, '/profiles'), { token: guess(), clientIp: attacker })).status).toBe(401);
    // Another client on team A: not blocked.
    expect(
      (await teamCall(teamPath(a.teamId, '/profiles'), { token: adminA.token, clientIp: '203.0.113.67' })).status,
    ).toBe(200);
    expect((await teamCall(teamPath(a.teamId, '/profiles'), { token: guess(), clientIp: '203.0.113.67' })).status).toBe(
      401,
    );

    // Team A's chain holds the denials of that client, the block among them; team B's holds only its one.
    const denied = await teamCall(teamPath(a.teamId, '/audit?action=auth.denied&limit=1000'), { token: adminA.token });
    const codes = denied.json.items
      .filter((e: { details: { client_ip: string } }) => e.details.client_ip === attacker)
      .map((e: { error_code: string }) => e.error_code);
    expect(codes.sort()).toEqual(['auth.throttled', 'auth.token_invalid']);
    const deniedB = await teamCall(teamPath(b.teamId, '/audit?action=auth.denied&limit=1000'), { token: adminB.token });
    expect(
      deniedB.json.items.map(
        (e: { error_code: string; details: { client_ip: string } }) => `${e.error_code} ${e.details.client_ip}`,
      ),
    ).toEqual([`auth.token_invalid ${attacker}`]);
  });

  it(`throttles the operator's route the same way: ${MAX_FAILURES} wrong operator tokens, then 429 for that client only`, async () => {
    const body = { team_id: 'throttle-op', owner: 'boss@throttle-op.example' };
    const { statuses, last } = await guessUntilRefused('/v1/teams', '198.51.100.99', { method: 'POST', body });
    expect(statuses).toEqual([...Array<number>(MAX_FAILURES).fill(401), 429]);
    expect(last.json.error.code).toBe('auth.throttled');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    const blocked = await teamCall('/v1/teams', {
      method: 'POST',
      body,
      token: TEAM_TEST_OPERATOR_TOKEN,
      clientIp: '198.51.100.99',
    });
    expect(blocked.status).toBe(429);
    expect(
      (
        await teamCall('/v1/teams', {
          method: 'POST',
          body,
          token: TEAM_TEST_OPERATOR_TOKEN,
          clientIp: '198.51.100.100',
        })
      ).status,
    ).toBe(201);
    // The operator's budget is not a team's: the blocked client still reaches the team it was refused the creation of.
    expect(
      (
        await teamCall(teamPath('throttle-op', '/profiles'), {
          assertion: await assertionFor(body.owner),
          clientIp: '198.51.100.99',
        })
      ).status,
    ).toBe(200);
  });
});

describe("denials in the team's chain", () => {
  it('name the token or the member that was denied, even after more clients than the coalescer tracks were denied', async () => {
    const { teamId, owner } = await createTeam('denials-team');
    const boss = await assertionFor(owner);
    expect(
      (
        await teamCall(teamPath(teamId, '/members/worker@denials-team.example'), {
          method: 'PUT',
          assertion: boss,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(200);
    // More clients than there are open windows, each denied once.
    for (let i = 0; i <= MAX_OPEN_WINDOWS; i++) {
      expect(
        (await teamCall(teamPath(teamId, '/profiles'), { token: guess(), clientIp: `192.0.2.${i + 1}` })).status,
      ).toBe(401);
    }
    const narrow = await teamToken(teamId, owner, ['profiles:read'], false, 'narrow');
    const byToken = await teamCall(teamPath(teamId, '/tokens'), { token: narrow.token, clientIp: '192.0.2.200' });
    expect(byToken.status).toBe(403);
    expect(await entryOf(teamId, byToken.json.request_id)).toEqual([
      expect.objectContaining({
        action: 'auth.denied',
        actor_type: 'token',
        actor_id: narrow.id,
        actor_label: 'narrow',
        error_code: 'auth.admin_required',
      }),
    ]);
    const byMember = await teamCall(teamPath(teamId, '/audit'), {
      assertion: await assertionFor('worker@denials-team.example'),
      clientIp: '192.0.2.201',
    });
    expect(byMember.status).toBe(403);
    expect(await entryOf(teamId, byMember.json.request_id)).toEqual([
      expect.objectContaining({
        action: 'auth.denied',
        actor_type: 'member',
        actor_label: 'worker@denials-team.example',
        error_code: byMember.json.error.code,
      }),
    ]);
  });
});
