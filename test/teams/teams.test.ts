import { describe, expect, it } from 'vitest';
import { TEAM_TEST_OPERATOR_TOKEN } from './constants';
import { assertionFor, createTeam, teamCall, teamToken } from './support';

describe('the team service', () => {
  it('answers /status without a team', async () => {
    const res = await teamCall('/status');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ok' });
  });

  it('refuses a Host that is not one of LPA_TEAM_HOSTNAMES, before anything else', async () => {
    const res = await teamCall('/status', { headers: { host: 'evil.example' } });
    expect(res.status).toBe(421);
    expect(res.json.error.code).toBe('request.host_forbidden');
  });

  it('creates a team for the operator only: 401 without or with a wrong token, 400 on a bad id, 201, then 409', async () => {
    const body = { team_id: 'create-me', owner: 'boss@create-me.example' };
    expect((await teamCall('/v1/teams', { method: 'POST', body })).status).toBe(401);
    const wrong = await teamCall('/v1/teams', {
      method: 'POST',
      body,
      token: 'lpa_op_wrong-token-0123456789',
      clientIp: '198.51.100.20',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('auth.token_invalid');
    for (const team_id of ['ab', 'Upper-case', 'under_score', 'x'.repeat(64), '../etc']) {
      const bad = await teamCall('/v1/teams', {
        method: 'POST',
        body: { ...body, team_id },
        token: TEAM_TEST_OPERATOR_TOKEN,
      });
      expect(bad.status, team_id).toBe(400);
      expect(bad.json.error.code).toBe('request.invalid');
    }
    const created = await teamCall('/v1/teams', { method: 'POST', body, token: TEAM_TEST_OPERATOR_TOKEN });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ team_id: 'create-me', owner: 'boss@create-me.example' });
    const again = await teamCall('/v1/teams', { method: 'POST', body, token: TEAM_TEST_OPERATOR_TOKEN });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('team.exists');
  });

  it('answers a team nobody created as one that knows no one, 404 team.not_found for an id of no team, and 404 route.not_found outside /teams/{id}/api/v1', async () => {
    const stranger = await teamCall('/teams/nobody-made-me/api/v1/profiles', {
      assertion: await assertionFor('a@b.example'),
    });
    expect(stranger.status).toBe(403);
    expect(stranger.json.error.code).toBe('auth.not_member');
    const res = await teamCall('/teams/Nobody_Made_Me/api/v1/profiles', {
      assertion: await assertionFor('a@b.example'),
    });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('team.not_found');
    expect((await teamCall('/api/v1/profiles')).json.error.code).toBe('route.not_found');
  });

  it('lets the operator token open no team', async () => {
    await createTeam('operator-blind');
    const res = await teamCall('/teams/operator-blind/api/v1/profiles', { token: TEAM_TEST_OPERATOR_TOKEN });
    expect(res.status).toBe(401);
  });

  it('serves the owner through Cloudflare Access, and refuses a person who is not a member', async () => {
    const { owner } = await createTeam('access-team');
    const ok = await teamCall('/teams/access-team/api/v1/profiles', { assertion: await assertionFor(owner) });
    expect(ok.status).toBe(200);
    const stranger = await teamCall('/teams/access-team/api/v1/profiles', {
      assertion: await assertionFor('someone@else.example'),
    });
    expect(stranger.status).toBe(403);
    expect(stranger.json.error.code).toBe('auth.not_member');
  });

  it.each([
    ['a key the JWKS does not hold', { key: 'stranger' as const }],
    ['another audience', { audience: 'not-ours' }],
    ['another issuer', { issuer: 'https://evil.cloudflareaccess.com' }],
    ['an expired assertion', { expiresIn: -60 }],
    ['an assertion not valid yet', { notBefore: 120 }],
  ])('refuses an Access assertion signed with %s: 401', async (_name, options) => {
    const { owner } = await createTeam(`jwt-${crypto.randomUUID().slice(0, 8)}`).then((t) => t);
    const teamId = owner.split('@')[1]!.replace('.example', '');
    const res = await teamCall(`/teams/${teamId}/api/v1/profiles`, { assertion: await assertionFor(owner, options) });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('auth.token_invalid');
  });

  it('refuses an unsigned (alg none) assertion and one without email or common_name', async () => {
    const { owner } = await createTeam('jwt-shapes');
    const signed = await assertionFor(owner);
    const [, payload] = signed.split('.');
    const none = `${btoa(JSON.stringify({ alg: 'none' })).replace(/=+$/, '')}.${payload}.`;
    expect((await teamCall('/teams/jwt-shapes/api/v1/profiles', { assertion: none })).status).toBe(401);
    expect((await teamCall('/teams/jwt-shapes/api/v1/profiles', { assertion: await assertionFor(null) })).status).toBe(
      401,
    );
  });

  it('knows an Access service token by its common_name', async () => {
    await createTeam('service-tokens');
    const owner = await assertionFor('owner@service-tokens.example');
    const machine = 'abcdef0123456789.access';
    expect(
      (
        await teamCall(`/teams/service-tokens/api/v1/members/${machine}`, {
          method: 'PUT',
          assertion: owner,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(200);
    const res = await teamCall('/teams/service-tokens/api/v1/profiles', {
      assertion: await assertionFor(null, { claims: { common_name: machine } }),
    });
    expect(res.status).toBe(200);
  });

  it('compares identities as Access issued them: no Unicode case mapping, a service token only as <client id>.access', async () => {
    const { owner } = await createTeam('identities');
    const boss = await assertionFor(owner);
    for (const member of ['kelvin@identities.example', 'abcdef0123456789.access']) {
      const put = await teamCall(`/teams/identities/api/v1/members/${member}`, {
        method: 'PUT',
        assertion: boss,
        body: { role: 'admin' },
      });
      expect(put.status).toBe(200);
    }
    const asMember = async (claims: Record<string, unknown>) =>
      (await teamCall('/teams/identities/api/v1/profiles', { assertion: await assertionFor(null, { claims }) })).status;
    expect(await asMember({ email: 'KELVIN@Identities.example' })).toBe(200);
    // U+212A KELVIN SIGN lower-cases to an ASCII k: the address is checked before any case mapping.
    expect(await asMember({ email: '\u212Aelvin@identities.example' })).toBe(401);
    expect(await asMember({ common_name: 'ABCDEF0123456789.access' })).toBe(200);
    // A service token's name is never taken as an email, nor a person's email as a service token's.
    expect(await asMember({ common_name: 'kelvin@identities.example' })).toBe(401);
    expect(await asMember({ email: 'abcdef0123456789.access' })).toBe(401);
  });

  it('gives a member the member scopes only, and keeps the last owner', async () => {
    const { owner } = await createTeam('roles-team');
    const boss = await assertionFor(owner);
    expect(
      (
        await teamCall('/teams/roles-team/api/v1/members/worker@roles-team.example', {
          method: 'PUT',
          assertion: boss,
          body: { role: 'member' },
        })
      ).status,
    ).toBe(200);
    const worker = await assertionFor('worker@roles-team.example');
    const made = await teamCall('/teams/roles-team/api/v1/profiles', {
      method: 'POST',
      assertion: worker,
      body: { name: 'by a member' },
    });
    expect(made.status).toBe(201);
    const tokens = await teamCall('/teams/roles-team/api/v1/tokens', { assertion: worker });
    expect(tokens.json.error.code).toBe('auth.admin_required');
    const audit = await teamCall('/teams/roles-team/api/v1/audit', { assertion: worker });
    expect(audit.status).toBe(403);
    const last = await teamCall(`/teams/roles-team/api/v1/members/${owner}`, { method: 'DELETE', assertion: boss });
    expect(last.status).toBe(409);
    expect(last.json.error.code).toBe('members.last_owner');
    const list = await teamCall('/teams/roles-team/api/v1/members', { assertion: boss });
    expect(list.json.items.map((m: { email: string; role: string }) => `${m.email}:${m.role}`).sort()).toEqual([
      `${owner}:owner`,
      'worker@roles-team.example:member',
    ]);
  });

  it('records the member as the actor of a change, in the team chain, which verifies', async () => {
    const { owner } = await createTeam('audit-team');
    const boss = await assertionFor(owner);
    const made = await teamCall('/teams/audit-team/api/v1/profiles', {
      method: 'POST',
      assertion: boss,
      body: { name: 'audited' },
    });
    expect(made.status).toBe(201);
    const entries = await teamCall('/teams/audit-team/api/v1/audit?action=profiles.create', { assertion: boss });
    expect(entries.json.items[0]).toMatchObject({
      actor_type: 'member',
      actor_label: owner,
      action: 'profiles.create',
    });
    const verify = await teamCall('/teams/audit-team/api/v1/audit/verify', { assertion: boss });
    expect(verify.json).toMatchObject({ ok: true });
  });

  it('takes team tokens in their own team only', async () => {
    const a = await createTeam('tokens-a');
    await createTeam('tokens-b');
    const { token } = await teamToken(a.teamId, a.owner, ['profiles:read']);
    expect((await teamCall('/teams/tokens-a/api/v1/profiles', { token })).status).toBe(200);
    const other = await teamCall('/teams/tokens-b/api/v1/profiles', { token });
    expect(other.status).toBe(401);
    expect(other.json.error.code).toBe('auth.token_invalid');
  });

  it('does not serve the routes of one machine under a team', async () => {
    const { owner } = await createTeam('machine-routes');
    const boss = await assertionFor(owner);
    for (const path of [
      '/api/v1/system/status',
      '/api/v1/system/logs',
      '/api/v1/automation/files',
      '/api/v1/automation/synchronizer',
    ]) {
      const res = await teamCall(`/teams/machine-routes${path}`, { assertion: boss });
      expect(res.status, path).toBe(404);
      expect(res.json.error.code, path).toBe('route.not_found');
    }
  });
});
