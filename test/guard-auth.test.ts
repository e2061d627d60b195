import { describe, expect, it, vi } from 'vitest';
import { call, freshIp, tokenWith } from './support/api';
import { sql } from './support/store';

const envelope = (code: string, details: Record<string, unknown> = {}) => ({
  error: { code, message: expect.any(String), details },
  request_id: expect.any(String),
});

describe('bearer authentication', () => {
  it('needs a token everywhere but GET /status', async () => {
    expect((await call('/status', { token: null })).status).toBe(200);
    const res = await call('/api/v1/version', { token: null, clientIp: freshIp() });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(envelope('auth.token_missing'));
  });

  it('refuses an unknown token, a token in the query string and a non-Bearer scheme', async () => {
    const { token } = await tokenWith([]);
    const ip = freshIp();
    expect((await call('/api/v1/version', { token: 'lpa_nope', clientIp: ip })).json).toEqual(
      envelope('auth.token_invalid'),
    );
    expect((await call(`/api/v1/version?access_token=${token}`, { token: null, clientIp: ip })).json).toEqual(
      envelope('auth.token_missing'),
    );
    expect(
      (await call('/api/v1/version', { token: null, headers: { authorization: `Basic ${token}` }, clientIp: ip }))
        .status,
    ).toBe(401);
    expect(
      (await call('/api/v1/version', { token: null, headers: { authorization: `bearer ${token}` }, clientIp: ip }))
        .status,
    ).toBe(200);
  });

  it('answers 401 before 404 on unknown routes, so routes cannot be probed anonymously', async () => {
    expect((await call('/api/v1/nope', { token: null, clientIp: freshIp() })).status).toBe(401);
    const res = await call('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(res.json).toEqual(envelope('route.not_found', { method: 'GET', path: '/api/v1/nope' }));
  });

  it('refuses a revoked token from the next request on', async () => {
    const { id, token } = await tokenWith([]);
    expect((await call('/api/v1/version', { token })).status).toBe(200);
    expect((await call(`/api/v1/tokens/${id}`, { method: 'DELETE' })).json).toEqual({ ok: true });
    const res = await call('/api/v1/version', { token, clientIp: freshIp() });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(envelope('auth.token_invalid'));
  });

  it('refuses an expired token', async () => {
    const res = await call('/api/v1/tokens', {
      method: 'POST',
      body: { name: 'short-lived', scopes: [], expires_in_minutes: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.json.expires_at).toBe(res.json.created_at + 60_000);
    expect((await call('/api/v1/version', { token: res.json.token })).status).toBe(200);
    // Expiry is checked at use: the token cache the store shares with the worker holds the token still.
    vi.setSystemTime(res.json.expires_at);
    try {
      expect((await call('/api/v1/version', { token: res.json.token, clientIp: freshIp() })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('scopes', () => {
  it('lists exactly the missing scopes', async () => {
    const { token } = await tokenWith(['audit:read']);
    const res = await call('/api/v1/settings/logs', { method: 'PUT', token, body: { retention_days: 10 } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual(envelope('auth.scope_missing', { missing: ['settings:write'] }));
  });

  it('lets a token with the scope through, and an admin session through any scope check', async () => {
    const { token } = await tokenWith(['settings:write']);
    expect((await call('/api/v1/settings/logs', { method: 'PUT', token, body: { retention_days: 11 } })).status).toBe(
      200,
    );
    const admin = await call('/api/v1/tokens', {
      method: 'POST',
      body: { name: 'second admin', scopes: [], admin: true },
    });
    expect(
      (await call('/api/v1/settings/logs', { method: 'PUT', token: admin.json.token, body: { retention_days: 12 } }))
        .status,
    ).toBe(200);
  });

  it('keeps the token routes to admin sessions', async () => {
    const { token } = await tokenWith(['audit:read', 'settings:write']);
    const res = await call('/api/v1/tokens', { token });
    expect(res.status).toBe(403);
    expect(res.json).toEqual(envelope('auth.admin_required'));
  });

  it('audits every denial with its code and the caller', async () => {
    const { id, token } = await tokenWith([]);
    const denied = await call('/api/v1/settings/logs', { method: 'PUT', token, body: { retention_days: 9 } });
    const rows = await sql<{
      action: string;
      result: string;
      error_code: string;
      actor_id: string;
      request_id: string;
    }>(
      'SELECT action, result, error_code, actor_id, request_id FROM audit_log WHERE request_id = ?',
      denied.json.request_id,
    );
    expect(rows).toEqual([
      {
        action: 'auth.denied',
        result: 'denied',
        error_code: 'auth.scope_missing',
        actor_id: id,
        request_id: denied.json.request_id,
      },
    ]);
  });
});
