import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { hostClient, type HostPort } from '../src/host/port';
import { ErrorCodeForm, type TeamAnswer, type TeamRequest } from '../src/host/team-link-request';
import { ERROR_CATALOG } from '../src/shared/errors/catalog';
import { call, tokenWith } from './support/api';
import { sql } from './support/store';
import { serviceWith, type ServiceOptions } from './support/service';

const TEAM_URL = 'https://lpa.example.com/teams/acme';
const HEAD = `41,${'ab'.repeat(32)}`;

/** A local service joined to a team the test plays: every forwarded request is recorded and answered by `answer`. */
function joined(answer: (request: TeamRequest) => TeamAnswer, teamUrl = TEAM_URL) {
  const sent: TeamRequest[] = [];
  const host: HostPort = {
    ...hostClient(env.HOST),
    team: { forward: async (request) => (sent.push(request), answer(request)) },
  };
  return { service: serviceWith({ config: { teamUrl }, host }), sent };
}

/** A team answer as raw bytes, with the headers given (the team's head unless told otherwise). */
const rawAnswer = (status: number, body: string, headers: Record<string, string>): TeamAnswer => ({
  reachable: true,
  status,
  headers: { 'x-request-id': crypto.randomUUID(), 'x-lpa-team-head': HEAD, ...headers },
  body: new TextEncoder().encode(body),
});

/** What the machine witnessed of the team at `teamUrl`, once the answers' background work has ended. */
async function witnessedOf(service: ReturnType<typeof joined>['service']) {
  await service.idle();
  const status = await call('/api/v1/team', { fetcher: service });
  expect(status.status).toBe(200);
  return status.json.witness as { heads: number; newest: { seq: number; hash: string } | null };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): TeamAnswer => ({
  reachable: true,
  status,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': crypto.randomUUID(),
    'x-lpa-team-head': HEAD,
    ...headers,
  },
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
    expect(sent[0]!.headers).toMatchObject({
      'x-lpa-local-token': id,
      'x-lpa-request-id': res.headers.get('x-request-id'),
    });
  });

  it('checks the local token first: a token without the scope gets the local 403 and nothing is forwarded', async () => {
    const { service, sent } = joined(() => json(200, {}));
    const { token } = await tokenWith(['audit:read']);
    const res = await call('/api/v1/profiles', { token, fetcher: service });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('auth.scope_missing');
    expect(sent).toHaveLength(0);
  });

  it("says when the team refused the machine's team token, not the caller's: team.scope_missing, recorded as such", async () => {
    const teamRefusal = (code: string, details: unknown) =>
      json(403, { error: { code, message: 'no', details }, request_id: 'team-side' }, { 'x-request-id': 'team-req' });
    const { service } = joined(() => teamRefusal('auth.scope_missing', { missing: ['secrets:read'] }));
    const { token } = await tokenWith(['runtime:control', 'secrets:read']);
    const res = await call('/api/v1/automation/globals/fwd_secret', { token, fetcher: service });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({
      code: 'team.scope_missing',
      details: { missing: ['secrets:read'], team_request_id: 'team-req' },
    });
    expect(res.json.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('x-lpa-team-head')).toBe(HEAD);

    // A team that names scopes this version does not know: the route's own are named.
    const odd = joined(() => teamRefusal('auth.scope_missing', { missing: ['future:scope'] }));
    const unknown = await call('/api/v1/automation/globals/fwd_secret', { token, fetcher: odd.service });
    expect(unknown.json.error).toMatchObject({
      code: 'team.scope_missing',
      details: { missing: ['runtime:control', 'secrets:read'] },
    });

    // An audited write records the refusal under its own code.
    const write = joined(() => teamRefusal('auth.scope_missing', { missing: ['rpa:write'] }));
    const put = await call('/api/v1/automation/globals/fwd_write', {
      method: 'PUT',
      body: { value: 'v', expected_revision: 1 },
      fetcher: write.service,
    });
    expect(put.json.error.code).toBe('team.scope_missing');
    const [entry] = await sql<{ error_code: string }>(
      `SELECT error_code FROM audit_log WHERE request_id = ?`,
      put.headers.get('x-request-id')!,
    );
    expect(entry).toEqual({ error_code: 'team.scope_missing' });

    // Any other 403 of the team passes through as the team gave it.
    const other = joined(() => teamRefusal('auth.not_member', { member: 'x@example.com' }));
    const passed = await call('/api/v1/profiles', { fetcher: other.service });
    expect(passed.json.error.code).toBe('auth.not_member');
  });

  it('validates locally: a bad body is 400 here and never reaches the team', async () => {
    const { service, sent } = joined(() => json(200, {}));
    const res = await call('/api/v1/automation/globals/fwd_bad', {
      method: 'PUT',
      body: { value: 1 },
      fetcher: service,
    });
    expect(res.status).toBe(400);
    expect(sent).toHaveLength(0);
  });

  it("passes the team's error envelope through, and records the audited request in the local chain with the team's answer", async () => {
    const conflict = {
      error: {
        code: 'state.revision_conflict',
        message: 'The revision does not match.',
        details: { current_revision: 3 },
      },
      request_id: 'team-side',
    };
    const { service } = joined(() => json(409, conflict));
    const res = await call('/api/v1/automation/globals/fwd_race', {
      method: 'PUT',
      body: { value: 'v', expected_revision: 1 },
      fetcher: service,
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual(conflict.error);
    const [entry] = await sql<{ result: string; error_code: string; details: string; request_id: string }>(
      `SELECT result, error_code, details, request_id FROM audit_log WHERE action = 'globals.write' AND request_id = ?`,
      res.headers.get('x-request-id')!,
    );
    expect(entry).toMatchObject({ result: 'error', error_code: 'state.revision_conflict' });
    expect(JSON.parse(entry!.details)).toMatchObject({ team: { status: 409, head: HEAD } });
  });

  it("records a team's error code only in the form of one: a code with control characters, or too long, is team.error", async () => {
    for (const code of ['team.x\u001b[31m<b>', `team.${'x'.repeat(60)}`, 'Team.Upper', '']) {
      const { service } = joined(() => json(409, { error: { code, message: 'no', details: {} }, request_id: 'x' }));
      const res = await call('/api/v1/automation/globals/fwd_code', {
        method: 'PUT',
        body: { value: 'v', expected_revision: 1 },
        fetcher: service,
      });
      expect(res.status).toBe(409);
      const [entry] = await sql<{ error_code: string }>(
        `SELECT error_code FROM audit_log WHERE request_id = ?`,
        res.headers.get('x-request-id')!,
      );
      expect(entry, code).toEqual({ error_code: 'team.error' });
    }
    // The form holds every code this version knows: a team of the same version is never misread.
    for (const code of Object.keys(ERROR_CATALOG)) expect(ErrorCodeForm.safeParse(code).success, code).toBe(true);
  });

  it('answers 503 team.unreachable with Retry-After when the team does not answer; local routes keep working', async () => {
    const { service } = joined(() => ({ reachable: false, reason: 'no answer within 5000 ms' }));
    const res = await call('/api/v1/automation/globals/fwd_offline', {
      method: 'PUT',
      body: { value: 'v', expected_revision: 0 },
      fetcher: service,
    });
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

describe('a team answer this machine does not pass on as the team API', () => {
  it.each([
    [
      'an HTML page (a proxy, or a login page in front of the team)',
      200,
      { 'content-type': 'text/html' },
      '<html>sign in</html>',
      'content type "text/html"',
    ],
    ['a redirect without a body or a type', 302, {}, '', 'content type ""'],
    [
      'JSON by its type, not by its body',
      200,
      { 'content-type': 'application/json' },
      '{"items": [',
      'a body that is not JSON',
    ],
    [
      'an error status with a text body',
      500,
      { 'content-type': 'text/plain' },
      'Internal Server Error',
      'content type "text/plain"',
    ],
  ])(
    '%s: 502 team.bad_answer, with its head neither witnessed nor passed on',
    async (_, status, headers, body, reason) => {
      const { service } = joined(() => rawAnswer(status, body, headers), `${TEAM_URL}-bad-${status}-${reason.length}`);
      const res = await call('/api/v1/profiles', { fetcher: service });
      expect(res.status).toBe(502);
      expect(res.json.error).toMatchObject({ code: 'team.bad_answer', details: { status } });
      expect(res.json.error.details.reason).toContain(reason);
      expect(res.headers.get('x-lpa-team-head')).toBeNull();
      expect(await witnessedOf(service)).toMatchObject({ heads: 0, newest: null });
    },
  );

  it("records an audited write whose answer was not the team's in the local chain as team.bad_answer", async () => {
    const { service } = joined(
      () => rawAnswer(200, '<html></html>', { 'content-type': 'text/html' }),
      `${TEAM_URL}-bad-write`,
    );
    const res = await call('/api/v1/automation/globals/fwd_bad_answer', {
      method: 'PUT',
      body: { value: 'v', expected_revision: 0 },
      fetcher: service,
    });
    expect(res.status).toBe(502);
    const entries = await sql<{ result: string; error_code: string }>(
      `SELECT result, error_code FROM audit_log WHERE action = 'globals.write' AND request_id = ?`,
      res.headers.get('x-request-id')!,
    );
    expect(entries).toEqual([{ result: 'error', error_code: 'team.bad_answer' }]);
  });

  it('answers 502 team.bad_answer when the host took an answer too large to pass on', async () => {
    const { service } = joined(() => ({
      reachable: false,
      answered: true,
      reason: "the team's answer is larger than 24 MiB",
    }));
    const res = await call('/api/v1/audit/export?format=jsonl', { fetcher: service });
    expect(res.status).toBe(502);
    expect(res.json.error).toMatchObject({
      code: 'team.bad_answer',
      details: { status: null, reason: "the team's answer is larger than 24 MiB" },
    });
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it.each([
    ['not a head at all', 'garbage'],
    ['a hash that is not hex', `7,${'zz'.repeat(32)}`],
    ['a third field', `7,${'ab'.repeat(32)},1`],
    ['a seq past 15 digits', `1234567890123456,${'ab'.repeat(32)}`],
    ['a negative seq', `-7,${'ab'.repeat(32)}`],
  ])('passes the answer on but neither witnesses nor passes on a malformed head: %s', async (_, head) => {
    const { service } = joined(
      () => json(200, { items: [], next_cursor: null, total: 0 }, { 'x-lpa-team-head': head }),
      `${TEAM_URL}-head-${head.length}-${head.slice(0, 3)}`,
    );
    const res = await call('/api/v1/profiles', { fetcher: service });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ items: [], next_cursor: null, total: 0 });
    expect(res.headers.get('x-lpa-team-head')).toBeNull();
    expect(await witnessedOf(service)).toMatchObject({ heads: 0, newest: null });
  });

  it('witnesses and passes on a well-formed head, and only for the team link it came from', async () => {
    const { service } = joined(() => json(200, { items: [], next_cursor: null, total: 0 }), `${TEAM_URL}-good-head`);
    expect((await call('/api/v1/profiles', { fetcher: service })).headers.get('x-lpa-team-head')).toBe(HEAD);
    expect(await witnessedOf(service)).toMatchObject({ heads: 1, newest: { seq: 41, hash: 'ab'.repeat(32) } });
    const other = joined(() => json(200, {}), `${TEAM_URL}-another`).service;
    expect(await witnessedOf(other)).toMatchObject({ heads: 0, newest: null });
  });

  it('asks the store to keep a head only when it is not the one it last kept; a head it failed to keep is asked again', async () => {
    const seen: string[] = [];
    let failNext = true;
    // The object's store, with `witness.see` watched: the first call fails as a store that is away would.
    const store: ServiceOptions['store'] = ({ object }) => {
      const { client } = object.started;
      const see: typeof client.witness.see = async (team, head) => {
        seen.push(head.seq.toString());
        if (failNext) {
          failNext = false;
          throw new Error('the store is away');
        }
        return client.witness.see(team, head);
      };
      return { store: object.started.store, client: { ...client, witness: { ...client.witness, see } } };
    };
    let head = HEAD;
    const sent: TeamRequest[] = [];
    const host: HostPort = {
      ...hostClient(env.HOST),
      team: {
        forward: async (request) => (
          sent.push(request), json(200, { items: [], next_cursor: null, total: 0 }, { 'x-lpa-team-head': head })
        ),
      },
    };
    const service = serviceWith({ config: { teamUrl: `${TEAM_URL}-kept-heads` }, store, host });
    // The failure is logged, not thrown at the request: the test takes that line instead of printing it.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const read = async () => {
      expect((await call('/api/v1/profiles', { fetcher: service })).headers.get('x-lpa-team-head')).toBe(head);
      await service.idle();
    };
    await read(); // the store fails: nothing kept
    expect(logged).toHaveBeenCalledExactlyOnceWith(
      'could not keep the team head',
      expect.objectContaining({ message: 'the store is away' }),
    );
    logged.mockRestore();
    await read(); // asked again, kept
    await read();
    await read();
    expect(seen).toEqual(['41', '41']);
    head = `42,${'cd'.repeat(32)}`;
    await read();
    await read();
    expect(seen).toEqual(['41', '41', '42']);
    expect(sent).toHaveLength(6);
    expect(await witnessedOf(service)).toMatchObject({ heads: 2, newest: { seq: 42, hash: 'cd'.repeat(32) } });
  });

  it.each([204, 205, 304])(
    'answers a team status %i without a body, though the host port carried one (never a 500)',
    async (status) => {
      const { service } = joined(
        () => rawAnswer(status, '{}', { 'content-type': 'application/json' }),
        `${TEAM_URL}-null-${status}`,
      );
      const res = await call('/api/v1/profiles', { fetcher: service });
      expect(res.status).toBe(status);
      expect(res.text).toBe('');
      expect(res.headers.get('x-lpa-team-head')).toBe(HEAD);
    },
  );
});
