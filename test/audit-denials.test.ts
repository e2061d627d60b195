import { describe, expect, it } from 'vitest';
import type { AuditContext } from '../storage/audit/entry';
import {
  DENIAL_WINDOW_MS,
  DenialCoalescer,
  MANY_CLIENTS,
  MAX_OPEN_WINDOWS,
  type Denial,
} from '../storage/audit/denials';
import { redactTokens } from '../src/pipeline/redact';
import { call, freshIp, tokenWith } from './support/api';
import { TEST_ADMIN_TOKEN } from './support/constants';
import { logLineWith, todaysLog } from './support/log-files';
import { sql } from './support/store';

const auditCount = async () => (await sql<{ n: number }>('SELECT count(*) AS n FROM audit_log'))[0]!.n;
const auditRow = async (requestId: string) =>
  (
    await sql<{ error_code: string; details: string }>(
      'SELECT error_code, details FROM audit_log WHERE request_id = ?',
      requestId,
    )
  )[0];

async function flood(n: number, request: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await request(i)).status);
  return statuses;
}

describe('denials in the audit log', { timeout: 180_000 }, () => {
  it('writes the first denial of a client and reason at once', async () => {
    const res = await call('/api/v1/version', { token: 'lpa_first-of-its-kind-0000', clientIp: freshIp() });
    expect(res.status).toBe(401);
    const row = await auditRow(res.json.request_id);
    expect(row?.error_code).toBe('auth.token_invalid');
    expect(JSON.parse(row!.details)).toEqual({
      method: 'GET',
      path: '/api/v1/version',
      status: 401,
      client_ip: expect.any(String),
    });
  });

  // 400 here, as the test harness slows with every request; the bound does not depend on the number.
  // The coalescer's own test below takes 10,000, and test/node/hostile.test.ts sends 10,000 over HTTP.
  it('adds a bounded number of entries for a flood of junk requests: bad tokens, forbidden origins, a blocked address', async () => {
    const attacker = freshIp();
    // The user's own client has been at work before the flood.
    expect((await call('/api/v1/version')).status).toBe(200);
    const before = await auditCount();
    const kinds = [
      () => call('/api/v1/version', { token: `lpa_guess-${crypto.randomUUID()}`, clientIp: attacker }),
      () => call('/api/v1/version', { token: null, clientIp: attacker }),
      () =>
        call('/api/v1/settings/logs', {
          method: 'PUT',
          body: 'retention_days=1',
          headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
          clientIp: attacker,
        }),
      () => call('/api/v1/version', { token: null, headers: { 'sec-fetch-site': 'cross-site' }, clientIp: attacker }),
    ];
    const statuses = await flood(400, (i) => kinds[i % kinds.length]!());
    expect(new Set(statuses)).toEqual(new Set([401, 403, 429]));
    const added = (await auditCount()) - before;
    expect(added).toBeGreaterThanOrEqual(4);
    expect(added).toBeLessThanOrEqual(24);
    // Every reason is visible, the block included.
    const codes = await sql<{ error_code: string }>(
      `SELECT DISTINCT error_code FROM audit_log WHERE json_extract(details, '$.client_ip') = ?`,
      attacker,
    );
    expect(codes.map((c) => c.error_code).sort()).toEqual([
      'auth.throttled',
      'auth.token_invalid',
      'auth.token_missing',
      'request.origin_forbidden',
    ]);
    // The user's own client is not locked out by any of it.
    expect((await call('/api/v1/version')).status).toBe(200);
  });

  it('records a narrow token denied after many clients filled the windows as that token, not as anonymous', async () => {
    // 401, or 429 where an earlier flood of this file left the unknown addresses' shared budget spent: denials either way.
    for (let i = 0; i < 40; i++)
      expect([401, 429]).toContain((await call('/api/v1/version', { token: null, clientIp: freshIp() })).status);
    const narrow = await tokenWith(['audit:read']);
    const res = await call('/api/v1/tokens', { token: narrow.token });
    expect(res.status).toBe(403);
    const [row] = await sql<{ actor_type: string; actor_id: string; actor_label: string }>(
      'SELECT actor_type, actor_id, actor_label FROM audit_log WHERE request_id = ?',
      res.json.request_id,
    );
    expect(row).toEqual({ actor_type: 'token', actor_id: narrow.id, actor_label: narrow.name });
  });
});

describe('DenialCoalescer', () => {
  const audit: AuditContext = {
    actor: { type: 'anonymous', id: null, label: 'anonymous' },
    source: 'api',
    request_id: 'r',
    action: 'auth.denied',
  };
  const denial = (ip: string, code: Denial['code'] = 'auth.token_invalid', requestId = 'r'): Denial => ({
    audit: { ...audit, request_id: requestId },
    code,
    details: { method: 'GET', path: '/x', status: 401, client_ip: ip },
  });

  it('writes the first denial of a window, counts the rest in memory, and writes their count once the window has closed', () => {
    const coalescer = new DenialCoalescer();
    expect(coalescer.admit(denial('a', 'auth.token_invalid', 'r0'), 0)).toEqual([
      denial('a', 'auth.token_invalid', 'r0'),
    ]);
    for (let i = 1; i < 1000; i++) expect(coalescer.admit(denial('a', 'auth.token_invalid', `r${i}`), i)).toEqual([]);
    // Another reason of the same client is a window of its own.
    expect(coalescer.admit(denial('a', 'auth.token_missing'), 1000)).toHaveLength(1);
    const after = coalescer.admit(denial('b'), DENIAL_WINDOW_MS);
    expect(after).toEqual([
      {
        ...denial('a', 'auth.token_invalid', 'r999'),
        details: {
          ...denial('a').details,
          count: 999,
          first_at: new Date(1).toISOString(),
          last_at: new Date(999).toISOString(),
        },
      },
      denial('b'),
    ]);
  });

  it('writes nothing more for a window that saw one denial only', () => {
    const coalescer = new DenialCoalescer();
    coalescer.admit(denial('a'), 0);
    expect(coalescer.admit(denial('a'), DENIAL_WINDOW_MS)).toEqual([denial('a')]);
  });

  it('turns 10,000 denials of one client for four reasons into four entries within a window', () => {
    const coalescer = new DenialCoalescer();
    const codes: Denial['code'][] = [
      'auth.token_invalid',
      'auth.token_missing',
      'auth.throttled',
      'request.origin_forbidden',
    ];
    const written = Array.from({ length: 10_000 }, (_, i) => coalescer.admit(denial('a', codes[i % 4]), i)).flat();
    expect(written.map((d) => d.code)).toEqual(codes);
  });

  it('gathers the denials of more clients than it tracks into one window per reason', () => {
    const coalescer = new DenialCoalescer();
    const written = Array.from({ length: 5000 }, (_, i) => coalescer.admit(denial(`ip${i}`), 0)).flat();
    expect(written).toHaveLength(MAX_OPEN_WINDOWS + 1);
    expect(written.at(-1)!.details.client_ip).toBe(MANY_CLIENTS);
    const closing = coalescer.admit(denial('late'), DENIAL_WINDOW_MS);
    expect(closing.find((d) => d.details.client_ip === MANY_CLIENTS)?.details.count).toBe(5000 - MAX_OPEN_WINDOWS - 1);
    expect((coalescer as unknown as { open: Map<string, unknown> }).open.size).toBe(1);
  });

  it('keeps the token id and actor of a denial when more clients than it tracks are open', () => {
    const coalescer = new DenialCoalescer();
    for (let i = 0; i < MAX_OPEN_WINDOWS + 1; i++) coalescer.admit(denial(`ip${i}`), 0);
    const narrow: AuditContext = { ...audit, actor: { type: 'token', id: 'tok-1', label: 'narrow' } };
    const forbidden = (requestId: string): Denial => ({
      audit: { ...narrow, request_id: requestId },
      code: 'auth.scope_missing',
      details: { method: 'GET', path: '/p', status: 403, client_ip: 'late' },
    });
    const written = coalescer.admit(forbidden('t0'), 1);
    expect(written).toEqual([{ ...forbidden('t0'), details: { ...forbidden('t0').details, client_ip: MANY_CLIENTS } }]);
    expect(written[0]!.audit.actor).toEqual(narrow.actor);
    coalescer.admit(forbidden('t1'), 2);
    // The anonymous overflow of the same reason is a window of its own; the token's count stays its own.
    const closing = coalescer.admit(denial('later'), DENIAL_WINDOW_MS + 1);
    const counted = closing.find((d) => d.audit.actor.id === 'tok-1');
    expect(counted).toMatchObject({ audit: { actor: narrow.actor, request_id: 't1' }, details: { count: 1 } });
  });
});

describe('tokens never reach the audit log or the api log', () => {
  it('redacts the admin token, issued tokens and token-shaped strings sent in the URL path', async () => {
    const issued = await tokenWith(['audit:read']);
    const adminLike = `adm_${'0123456789abcdef'.repeat(4)}`;
    const cases = [
      await call(`/api/v1/automation/globals/${TEST_ADMIN_TOKEN}`, { token: null }),
      await call(`/api/v1/automation/globals/${encodeURIComponent(TEST_ADMIN_TOKEN)}x`, {
        token: 'lpa_wrong-token-zz',
      }),
      await call(`/api/v1/automation/globals/${issued.token}`, {
        method: 'PUT',
        token: issued.token,
        body: { value: 'v' },
      }),
      await call(`/api/v1/nope/${adminLike}/${issued.token}`, {
        token: null,
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
    ];
    expect(cases.map((c) => c.status)).toEqual([401, 401, 403, 403]);
    const secrets = [TEST_ADMIN_TOKEN, issued.token, adminLike, issued.token.slice(4)];
    for (const res of cases) {
      const row = await auditRow(res.json.request_id);
      expect(row, `an entry for ${res.json.error.code}`).toBeDefined();
      expect(JSON.parse(row!.details).path).toContain('[redacted]');
      for (const secret of secrets) expect(row!.details).not.toContain(secret);
      const line = await logLineWith(todaysLog('api'), res.json.request_id);
      for (const secret of secrets) expect(line).not.toContain(secret);
    }
  });

  it('keeps ordinary paths readable', () => {
    const secrets = {
      adminTokenSha256: '0'.repeat(64),
      adminTokenLength: 47,
      adminTokenFingerprint: null,
      bearer: null,
    };
    for (const path of [
      '/api/v1/automation/globals/my_holiday_pictures',
      '/api/v1/profiles/3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8',
      '/api/v1/audit?sort=created_at',
    ]) {
      expect(redactTokens(path, secrets)).toBe(path);
    }
  });
});
