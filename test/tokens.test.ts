import { describe, expect, it } from 'vitest';
import { call } from './support/api';
import { sql } from './support/store';

describe('tokens', () => {
  it('issues a token once and stores only its hash', async () => {
    const res = await call('/api/v1/tokens', {
      method: 'POST',
      body: { name: 'deploy script', scopes: ['audit:read', 'rpa:write'] },
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      name: 'deploy script',
      scopes: ['audit:read', 'rpa:write'],
      admin: false,
      created_at: expect.any(Number),
      expires_at: null,
      token: expect.stringMatching(/^lpa_[A-Za-z0-9_-]{43}$/),
    });
    const rows = await sql<Record<string, unknown>>('SELECT * FROM tokens WHERE id = ?', res.json.id);
    expect(JSON.stringify(rows)).not.toContain(res.json.token);
    const audit = await sql<{ details: string }>(
      `SELECT details FROM audit_log WHERE action = 'tokens.create' AND entity_id = ?`,
      res.json.id,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).not.toContain(res.json.token);
    const listed = await call('/api/v1/tokens');
    const item = listed.json.items.find((t: { id: string }) => t.id === res.json.id);
    expect(item).toEqual({ ...res.json, token: undefined });
    expect(JSON.stringify(listed.json)).not.toContain(res.json.token);
  });

  it('revokes a token: it leaves the list, and a second revoke is a 404', async () => {
    const created = await call('/api/v1/tokens', { method: 'POST', body: { name: 'to revoke', scopes: [] } });
    expect((await call(`/api/v1/tokens/${created.json.id}`, { method: 'DELETE' })).json).toEqual({ ok: true });
    expect((await call('/api/v1/tokens')).json.items.map((t: { id: string }) => t.id)).not.toContain(created.json.id);
    const again = await call(`/api/v1/tokens/${created.json.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('resource.not_found');
  });

  it.each([
    { name: '', scopes: [] },
    { name: 'x'.repeat(121), scopes: [] },
    { name: 'n', scopes: ['root'] },
    { name: 'n', scopes: ['audit:read', 'audit:read'] },
    { name: 'n', scopes: [], expires_in_minutes: 0 },
    { name: 'n', scopes: [], admin: 'yes' },
    { name: 'n' },
    { name: 'n', scopes: [], owner: 'me' },
  ])('refuses %j', async (body) => {
    const res = await call('/api/v1/tokens', { method: 'POST', body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('request.invalid');
  });

  it('audits a failed change as an error entry', async () => {
    const res = await call('/api/v1/tokens/does-not-exist', { method: 'DELETE' });
    const rows = await sql(
      'SELECT action, result, error_code, actor_type FROM audit_log WHERE request_id = ?',
      res.json.request_id,
    );
    expect(rows).toEqual([
      { action: 'tokens.revoke', result: 'error', error_code: 'resource.not_found', actor_type: 'admin' },
    ]);
  });

  it('tells a token what it is and may do (GET /api/v1/tokens/self), never its secret, and needs no scope', async () => {
    const issued = await call('/api/v1/tokens', {
      method: 'POST',
      body: { name: 'self-reader', scopes: ['profiles:read'], expires_in_minutes: 60 },
    });
    const own = await call('/api/v1/tokens/self', { token: issued.json.token });
    expect(own.status).toBe(200);
    expect(own.json).toEqual({
      id: issued.json.id,
      name: 'self-reader',
      scopes: ['profiles:read'],
      admin: false,
      expires_at: issued.json.expires_at,
    });
    expect(own.text).not.toContain(issued.json.token);
    const none = await call('/api/v1/tokens', { method: 'POST', body: { name: 'no-scope', scopes: [] } });
    expect((await call('/api/v1/tokens/self', { token: none.json.token })).json).toMatchObject({
      scopes: [],
      admin: false,
    });
    const admin = await call('/api/v1/tokens/self');
    expect(admin.json).toMatchObject({ id: null, admin: true, expires_at: null });
    expect((await call('/api/v1/tokens/self', { token: null })).status).toBe(401);
  });
});
