import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raw, startService, useService, RUNTIMES } from './service';

/** The workerd processes that a service started (its children). */
const workerdChildren = (pid: number) =>
  execSync(`pgrep -x -P ${pid} workerd || true`).toString().split('\n').filter(Boolean).map(Number);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.each(RUNTIMES)('the service on %s', (runtime) => {
  const svc = useService(runtime);

  it('prints the URL and where the admin token is, never the token, and no line before them', () => {
    const { output, port, dataRoot, token } = svc.current;
    expect(output().split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(
        new RegExp(`^LPA \\S+ \\([^)]+\\) listening on http://127\\.0\\.0\\.1:${port} \\(ready in \\d+ ms\\)$`),
      ),
      `data root: ${dataRoot}`,
      `admin token: in ${join(dataRoot, 'admin-token')}`,
    ]);
    expect(output()).not.toContain(token);
  });

  it('keeps its keys and token private to the user', () => {
    for (const file of ['admin-token', 'vault.key', 'audit.key']) {
      expect(statSync(join(svc.current.dataRoot, file)).mode & 0o777).toBe(0o600);
    }
  });

  it.skipIf(runtime === 'workerd')('keeps its in-process store in WAL mode', () => {
    // Bytes 18 and 19 of an SQLite file are its read and write versions: 2 means WAL.
    const header = readFileSync(join(svc.current.dataRoot, 'store', `lpa-${runtime}.sqlite`)).subarray(18, 20);
    expect([...header]).toEqual([2, 2]);
  });

  it('serves the API behind the Host guard', async () => {
    expect((await raw(svc.current.port, '/status')).json).toEqual({ status: 'ok', version: expect.any(String) });
    expect((await raw(svc.current.port, '/status', { headers: { host: 'localhost.evil.example' } })).status).toBe(421);
    // An absolute-form target names its own authority, whatever Host says (RFC 9112 §3.2.2): it is
    // held to the same names (under workerd by the front door). Bun drops the authority for Host's
    // before LPA sees the request, and has no front door to read it (docs/requests.md#the-steps).
    const absolute = (authority: string) => raw(svc.current.port, `http://${authority}/status`);
    for (const authority of ['evil.example', `localhost.evil.example:${svc.current.port}`, '127.0.0.1']) {
      const refused = await absolute(authority);
      if (runtime === 'bun') expect(refused.status).toBe(200);
      else
        expect(refused.json).toEqual({
          error: { code: 'request.host_forbidden', message: expect.any(String), details: { host: authority } },
          request_id: refused.headers['x-request-id'],
        });
    }
    expect((await absolute(`127.0.0.1:${svc.current.port}`)).json).toEqual({
      status: 'ok',
      version: expect.any(String),
    });
    const status = await raw(svc.current.port, '/api/v1/system/status', { headers: svc.auth() });
    expect(status.json.api).toEqual({ url: `http://127.0.0.1:${svc.current.port}`, port: svc.current.port });
    expect(status.json.data_root).toBe(svc.current.dataRoot);
    expect(status.json.vault).toEqual({ state: 'unlocked', reason: null });
  });

  it('throttles by the real peer address; CF-Connecting-IP and X-Forwarded-For change nothing', async () => {
    const spoof = { 'cf-connecting-ip': '127.0.0.99', 'x-forwarded-for': '127.0.0.99', 'x-real-ip': '127.0.0.99' };
    // Clients that have authenticated keep their own budget (docs/requests.md#the-steps, the throttle's global budget).
    for (const known of ['127.0.0.99', '127.0.0.4']) {
      expect(
        (await raw(svc.current.port, '/api/v1/version', { headers: svc.auth(), localAddress: known })).status,
      ).toBe(200);
    }
    for (let i = 0; i < 20; i++) {
      const res = await raw(svc.current.port, '/api/v1/version', {
        headers: { authorization: 'Bearer lpa_wrong', ...spoof },
        localAddress: '127.0.0.3',
      });
      expect(res.status).toBe(401);
    }
    const blocked = await raw(svc.current.port, '/api/v1/version', { headers: svc.auth(), localAddress: '127.0.0.3' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await raw(svc.current.port, '/api/v1/version', { headers: svc.auth(), localAddress: '127.0.0.99' })).status,
    ).toBe(200);
    expect(
      (await raw(svc.current.port, '/api/v1/version', { headers: svc.auth(), localAddress: '127.0.0.4' })).status,
    ).toBe(200);
    // An address that never authenticated shares the spent budget of all such addresses: rotating buys nothing.
    expect(
      (await raw(svc.current.port, '/api/v1/version', { headers: svc.auth(), localAddress: '127.0.0.8' })).status,
    ).toBe(429);
  });

  it('checks revisions, scopes and errors the same way', async () => {
    const created = await raw(svc.current.port, '/api/v1/tokens', {
      method: 'POST',
      headers: { ...svc.auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reader', scopes: ['audit:read'] }),
    });
    expect(created.status).toBe(201);
    const denied = await raw(svc.current.port, '/api/v1/settings/logs', {
      method: 'PUT',
      headers: { authorization: `Bearer ${created.json.token}`, 'content-type': 'application/json' },
      body: '{"retention_days":5}',
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toEqual({
      code: 'auth.scope_missing',
      message: expect.any(String),
      details: { missing: ['settings:write'] },
    });
    const invalid = await raw(svc.current.port, '/api/v1/settings/logs', {
      method: 'PUT',
      headers: { ...svc.auth(), 'content-type': 'application/json' },
      body: '{"retention_days":"5"}',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.code).toBe('request.invalid');
  });

  it('keeps its data across a restart and leaves no process behind on SIGTERM', async () => {
    const put = await raw(svc.current.port, '/api/v1/settings/logs', {
      method: 'PUT',
      headers: { ...svc.auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ retention_days: 42 }),
    });
    expect(put.status).toBe(200);
    const storeId = (await raw(svc.current.port, '/api/v1/system/status', { headers: svc.auth() })).json.store_id;
    const children = workerdChildren(svc.current.process.pid!);
    expect(children).toHaveLength(runtime === 'workerd' ? 1 : 0);
    expect(await svc.current.stop('SIGTERM')).toBe(0);
    expect(children.filter(alive)).toEqual([]);
    const core = readFileSync(
      join(svc.current.dataRoot, 'logs', 'core', `core-${new Date().toISOString().slice(0, 10)}.log`),
      'utf8',
    );
    expect(core).toMatch(
      / INFO service started version=\S+ runtime=.+ url=http:\/\/127\.0\.0\.1:\d+ .*admin_from=file /,
    );
    expect(core).toMatch(/ INFO service stopped reason=SIGTERM\n$/);
    expect(core).not.toContain(svc.current.token);

    svc.current = await startService(runtime, svc.current.dataRoot);
    expect((await raw(svc.current.port, '/api/v1/settings/logs', { headers: svc.auth() })).json.retention_days).toBe(
      42,
    );
    expect((await raw(svc.current.port, '/api/v1/system/status', { headers: svc.auth() })).json.store_id).toBe(storeId);
  });

  it('takes the admin token from LPA_ADMIN_TOKEN when set', async () => {
    const other = await startService(runtime, undefined, { LPA_ADMIN_TOKEN: 'lpa_from-the-environment-0123456789' });
    try {
      expect(other.output()).toContain('admin token: from LPA_ADMIN_TOKEN');
      const res = await raw(other.port, '/api/v1/version', {
        headers: { authorization: 'Bearer lpa_from-the-environment-0123456789' },
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await other.stop('SIGINT')).toBe(0);
    }
  });

  it('refuses to start with LPA_BROWSER_NICE outside 0..19', async () => {
    for (const nice of ['20', '-1', '5.5'])
      await expect(startService(runtime, undefined, { LPA_BROWSER_NICE: nice })).rejects.toThrow(
        /LPA_BROWSER_NICE must be a nice value 0\.\.19/,
      );
  });

  // The redaction of logged paths hashes only words of this shape (src/shared/admin-token.ts).
  it('refuses to start with an admin token of another shape, from LPA_ADMIN_TOKEN or the admin-token file', async () => {
    await expect(startService(runtime, undefined, { LPA_ADMIN_TOKEN: 'short-token' })).rejects.toThrow(
      /LPA_ADMIN_TOKEN must be 16\.\.512 characters/,
    );
    const dataRoot = mkdtempSync(join(tmpdir(), 'lpa-svc-'));
    writeFileSync(join(dataRoot, 'admin-token'), 'a token with spaces in it\n', { mode: 0o600 });
    await expect(startService(runtime, dataRoot)).rejects.toThrow(
      /the admin token in \S+admin-token must be 16\.\.512 characters/,
    );
  });
});
