import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { BASE_URL, TEST_PORT } from './support/constants';

/** The console's files through the test pool's worker: no token, the page and its hashed assets. */
const get = (path: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(`${BASE_URL}${path}`, { headers: { host: `127.0.0.1:${TEST_PORT}`, ...headers } });

describe('the web console in the worker', () => {
  it('serves the page without a token, uncached, with the console CSP', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('<div id="app"></div>');
  });

  it('serves every hashed asset the page names, cached for good', async () => {
    const html = await (await get('/')).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const answer = await get(asset);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      await answer.arrayBuffer();
    }
  });

  it('is refused to another site like any request', async () => {
    const framed = await get('/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' });
    expect(framed.status).toBe(403);
    expect(((await framed.json()) as { error: { code: string } }).error.code).toBe('request.origin_forbidden');
  });
});
