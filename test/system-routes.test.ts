import { abortAllDurableObjects } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hostClient } from '../src/host/port';
import { call } from './support/api';
import { TEST_PORT } from './support/constants';
import { serviceWith } from './support/service';
import { sql } from './support/store';

describe('system routes', () => {
  it('GET /status needs no token', async () => {
    const res = await call('/status', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', version: '0.1.0' });
  });

  it('GET /api/v1/version reports the applied migrations as db_version', async () => {
    const [{ n }] = (await sql<{ n: number }>('SELECT count(*) AS n FROM migrations')) as [{ n: number }];
    const res = await call('/api/v1/version');
    expect(res.json).toEqual({ app_version: '0.1.0', api_version: 1, db_version: n });
  });

  it('GET /api/v1/system/status reports every field of Core status', async () => {
    const res = await call('/api/v1/system/status');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      mode: 'normal',
      reason: null,
      warnings: [],
      data_root: expect.stringContaining('lpa-test-'),
      store_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      disk: 'ok',
      disk_free_bytes: expect.any(Number),
      db_version: expect.any(Number),
      vault: { state: 'unlocked', reason: null },
      api: { url: `http://127.0.0.1:${TEST_PORT}`, port: TEST_PORT },
      browser: { path: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) },
    });
    expect(res.json.disk_free_bytes).toBeGreaterThan(0);
  });

  it('GET /api/v1/system/status warns when no browser is found, and a start is 503 run.browser_missing', async () => {
    const host = hostClient(env.HOST);
    const problem = 'LPA_BROWSER names /nowhere/chrome, which is not an executable';
    const service = serviceWith({
      host: { ...host, runs: { ...host.runs, browser: async () => ({ found: false, problem }) } },
    });
    const status = (await call('/api/v1/system/status', { fetcher: service })).json;
    expect(status).toMatchObject({ mode: 'degraded', browser: null });
    expect(status.warnings).toContain(problem);
    const profile = (await call('/api/v1/profiles', { method: 'POST', body: { name: 'no-browser' }, fetcher: service }))
      .json.id;
    const start = await call(`/api/v1/profiles/${profile}/start`, { method: 'POST', body: {}, fetcher: service });
    expect(start.status).toBe(503);
    expect(start.json.error).toMatchObject({ code: 'run.browser_missing', details: { problem } });
    expect((await call(`/api/v1/profiles/${profile}/run`, { fetcher: service })).status).toBe(404);
  });

  it('GET /api/v1/account/status is local mode without a membership server', async () => {
    const res = await call('/api/v1/account/status');
    expect(res.json).toEqual({ authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null });
  });

  it('sends the request id as a header and in every envelope, and never caches', async () => {
    const ok = await call('/api/v1/version');
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const failed = await call('/api/v1/nope');
    expect(failed.json.request_id).toBe(failed.headers.get('x-request-id'));
    expect(failed.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('keeps settings and the store id across a restart of the store', async () => {
    const before = await call('/api/v1/system/status');
    const put = await call('/api/v1/settings/logs', {
      method: 'PUT',
      body: { retention_days: 77, kernel_retention_days: 7 },
    });
    expect(put.json).toEqual({ retention_days: 77, kernel_retention_days: 7 });
    await abortAllDurableObjects();
    expect((await call('/api/v1/settings/logs')).json).toEqual({ retention_days: 77, kernel_retention_days: 7 });
    expect((await call('/api/v1/system/status')).json.store_id).toBe(before.json.store_id);
    const partial = await call('/api/v1/settings/logs', { method: 'PUT', body: { kernel_retention_days: 3 } });
    expect(partial.json).toEqual({ retention_days: 77, kernel_retention_days: 3 });
  });

  it('records the start-up of the store', async () => {
    const rows = await sql<{ action: string; category: string; actor_type: string }>(
      `SELECT action, category, actor_type FROM audit_log WHERE action = 'service.start'`,
    );
    expect(rows[0]).toEqual({ action: 'service.start', category: 'startup', actor_type: 'system' });
  });
});
