import { describe, expect, it } from 'vitest';
import { call, freshIp } from './support/api';
import { TEST_ALLOWED_ORIGIN, TEST_PORT } from './support/constants';

describe('Host guard', () => {
  it.each([`127.0.0.1:${TEST_PORT}`, `localhost:${TEST_PORT}`, `LOCALHOST:${TEST_PORT}`, `[::1]:${TEST_PORT}`])(
    'accepts %s',
    async (host) => {
      const res = await call('/api/v1/version', { headers: { host } });
      expect(res.status).toBe(200);
    },
  );

  it.each([
    '127.0.0.1',
    'localhost',
    `127.0.0.1:${TEST_PORT + 1}`,
    `localhost.evil.example:${TEST_PORT}`,
    'localhost.evil.example',
    `127.0.0.1.nip.io:${TEST_PORT}`,
    `0177.0.0.1:${TEST_PORT}`,
    `10.0.2.555:${TEST_PORT}`,
    `[::1]`,
    `[::ffff:127.0.0.1]:${TEST_PORT}`,
    `127.0.0.1:${TEST_PORT}:${TEST_PORT}`,
    '',
  ])('refuses Host "%s" with 421 before anything else, even with no token', async (host) => {
    const res = await call('/status', { headers: { host }, token: null });
    expect(res.status).toBe(421);
    expect(res.json).toEqual({
      error: { code: 'request.host_forbidden', message: expect.any(String), details: { host: host.toLowerCase() } },
      request_id: res.headers.get('x-request-id'),
    });
  });
});

describe('Origin guard', () => {
  it('lets requests without Origin through, with no CORS headers', async () => {
    const res = await call('/api/v1/version');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers an allowed origin with CORS headers', async () => {
    const res = await call('/api/v1/version', { headers: { origin: TEST_ALLOWED_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(TEST_ALLOWED_ORIGIN);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });

  it('answers the preflight of an allowed origin without a token', async () => {
    const res = await call('/api/v1/settings/logs', {
      method: 'OPTIONS',
      token: null,
      headers: {
        origin: TEST_ALLOWED_ORIGIN,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(TEST_ALLOWED_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it.each([`http://127.0.0.1:${TEST_PORT}`, `http://localhost:${TEST_PORT}`])(
    "lets the console's own origin %s through",
    async (origin) => {
      const res = await call('/api/v1/version', { method: 'GET', headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    },
  );

  it.each([
    'null',
    `http://127.0.0.1:${TEST_PORT + 1}`,
    `http://localhost:${TEST_PORT + 1}`,
    `http://[::1]:${TEST_PORT}`,
    'http://evil.example',
    `http://127.0.0.1:${TEST_PORT}.evil.example`,
    `${TEST_ALLOWED_ORIGIN}.evil.example`,
    `${TEST_ALLOWED_ORIGIN}/`,
    TEST_ALLOWED_ORIGIN.replace('http:', 'https:'),
    TEST_ALLOWED_ORIGIN.toUpperCase(),
  ])('refuses Origin "%s" with 403, preflight included', async (origin) => {
    for (const res of [
      await call('/api/v1/version', { headers: { origin } }),
      await call('/api/v1/version', {
        method: 'OPTIONS',
        token: null,
        headers: { origin, 'access-control-request-method': 'GET' },
      }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('request.origin_forbidden');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('Sec-Fetch-Site', () => {
  it.each(['cross-site', 'same-site', 'Cross-Site'])(
    'refuses a request without Origin marked %s, before authentication',
    async (site) => {
      const res = await call('/api/v1/version', {
        token: 'lpa_not-a-token-0000000',
        headers: { 'sec-fetch-site': site },
      });
      expect(res.status).toBe(403);
      expect(res.json.error).toEqual({
        code: 'request.origin_forbidden',
        message: expect.any(String),
        details: { origin: null, sec_fetch_site: site.toLowerCase() },
      });
    },
  );

  it.each(['none', 'same-origin'])('lets a request marked %s through', async (site) => {
    expect((await call('/api/v1/version', { headers: { 'sec-fetch-site': site } })).status).toBe(200);
  });

  it("never counts a page's requests toward the throttle: a valid token still gets 200", async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      const res = await call('/api/v1/version', {
        token: `lpa_page-guess-${i}-000000`,
        clientIp: ip,
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(res.status).toBe(403);
    }
    expect((await call('/api/v1/version', { clientIp: ip })).status).toBe(200);
  });
});
