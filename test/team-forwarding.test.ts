import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hostClient, type HostPort } from '../src/host/port';
import type { TeamAnswer, TeamRequest } from '../src/host/team-forward';
import { call, tokenWith } from './support/api';
import { sql } from './support/store';
import { serviceWith } from './support/service';

const TEAM_URL = 'https://lpa.example.com/teams/acme';
const HEAD = `41,${'ab'.repeat(32)}`;

/** A local service joined to a team the test plays: every forwarded request is recorded and answered by `answer`. */
function joined(answer: (request: TeamRequest) => TeamAnswer) {
  const sent: TeamRequest[] = [];
  const host: HostPort = { ...hostClient(env.HOST), team: { forward: async (request) => (sent.push(request), answer(request)) } };
  return { service: serviceWith({ config: { teamUrl: TEAM_URL }, host }), sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): TeamAnswer => ({
  reachable: true,
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': crypto.randomUUID(), 'x-lpa-team-head': HEAD, ...headers },
  body: new TextEncoder().encode(JSON.stringify(body)),
});

describe('a machine joined to a team', () => {
  it("forwards a team route with the local request id and the local token's id, and passes the team's answer through", async () => {
    const { service, sent } = joined(() => json(200, { items: [], next_cursor: null, total: 0 }));
    const { id, token } = await tokenWith(['profiles:read']);
    const res = await call('/api/v1/profiles?limit=5', { token, fetcher: service });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ items: [], next_cursor: null, total: 0 });
    expect(res.headers.get('x-lpa-team-head')).toBe(HEAD);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'GET', target: '/api/v1/profiles?limit=5', body: null });
    expect(sent[0]!.headers).toMatchObject({ 'x-lpa-local-token': id, 'x-lpa-request-id': res.headers.get('x-request-id') });
  });

  it('checks the local token first: a token without the scope gets the local 403 and nothing is forwarded', async () => {
    const { service, sent } = joined(() => json(200, {}));
    const { token } = await tokenWith(['audit:read']);
    const res = await call('/api/v1/profiles', { token, fetcher: service });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('auth.scope_missing');
    expect(sent).toHaveLength(0);
  });

  it('validates locally: a bad body is 400 here and never reaches the team', async () => {
    const { service, sent } = joined(() => json(200, {}));
    const res = await call('/api/v1/automation/globals/fwd_bad', { method: 'PUT', body: { value: 1 }, fetcher: service });
    expect(res.status).toBe(400);
    expect(sent).toHaveLength(0);
  });

  it("passes the team's error envelope through, and records the audited request in the local chain with the team's answer", async () => {
    const conflict = { error: { code: 'state.revision_conflict', message: 'The revision does not match.', details: { current_revision: 3 } }, request_id: 'team-side' };
    const { service } = joined(() => json(409, conflict));
    const res = await call('/api/v1/automation/globals/fwd_race', { method: 'PUT', body: { value: 'v', expected_revision: 1 }, fetcher: service });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual(conflict.error);
    const [entry] = await sql<{ result: string; error_code: string; details: string; request_id: string }>(
      `SELECT result, error_code, details, request_id FROM audit_log WHERE action = 'globals.write' AND request_id = ?`,
      res.headers.get('x-request-id')!,
    );
    expect(entry).toMatchObject({ result: 'error', error_code: 'state.revision_conflict' });
    expect(JSON.parse(entry!.details)).toMatchObject({ team: { status: 409, head: HEAD } });
  });

  it('answers 503 team.unreachable with Retry-After when the team does not answer; local routes keep working', async () => {
    const { service } = joined(() => ({ reachable: false, reason: 'no answer within 5000 ms' }));
    const res = await call('/api/v1/automation/globals/fwd_offline', { method: 'PUT', body: { value: 'v', expected_revision: 0 }, fetcher: service });
    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: 'team.unreachable', details: { reason: 'no answer within 5000 ms' } });
    expect(res.headers.get('retry-after')).toBe('5');
    const [local] = await sql<{ n: number }>(`SELECT COUNT(*) AS n FROM automation_globals WHERE name = 'fwd_offline'`);
    expect(local!.n).toBe(0);
    expect((await call('/api/v1/system/status', { fetcher: service })).status).toBe(200);
  });

  it('keeps the routes of this machine local', async () => {
    const { service, sent } = joined(() => json(500, {}));
    for (const path of ['/api/v1/system/status', '/api/v1/system/logs', '/api/v1/automation/files', '/api/v1/tokens']) {
      expect((await call(path, { fetcher: service })).status, path).toBe(200);
    }
    expect(sent).toHaveLength(0);
  });
});
