import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, raw } from '../service';
import { expectAccessible, goTo, noChromium, signIn, useConsole } from './browser';

describe.skipIf(noChromium)('the console: serving, sign-in, Status, sign-out', { timeout: 120_000 }, () => {
  const web = useConsole();
  const port = () => web.svc.current.port;
  /** The console's files are not JSON, which `raw()` expects. */
  const file = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${web.origin()}${path}`, init);
    return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
  };

  it('serves the page at / (no-cache) and its hashed files (immutable), all with the security headers', async () => {
    const page = await file('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const answer of [page, ...(await Promise.all(assets.map((a) => file(a))))]) {
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
    for (const asset of assets) {
      const answer = await file(asset);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['content-type']).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
    // No inline script anywhere: the CSP would refuse it.
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const head = await file('/', { method: 'HEAD' });
    expect([head.status, head.text]).toEqual([200, '']);
    // The API is unchanged around it.
    expect((await raw(port(), '/status')).json).toEqual({ status: 'ok', version: expect.any(String) });
    // Any other path is the API's: a token first, then 404.
    const missing = await raw(port(), '/assets/absent-0000.js', { headers: web.svc.auth() });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'route.not_found']);
    expect((await raw(port(), '/', { method: 'POST', headers: web.svc.auth() })).status).toBe(404);
    // The Host guard still comes first.
    expect((await raw(port(), '/', { headers: { host: `evil.example:${port()}` } })).status).toBe(421);
  });

  it('signs in with the Token field, shows Status refreshed while open, and keeps the token in this tab only', async () => {
    const { page, errors } = await web.open();
    await expectAccessible(page);
    await signIn(page, web.svc.current.token);
    await goTo(page, 'Status');
    const core = page.getByRole('region', { name: 'Core' });
    await expect.poll(() => core.textContent()).toContain('normal');
    expect(await core.textContent()).toContain(web.svc.current.dataRoot);
    await expect.poll(() => page.getByRole('region', { name: 'Versions' }).textContent()).toContain('0.1.0');
    const membership = page.getByRole('region', { name: 'Membership' });
    await expect.poll(() => membership.textContent()).toContain('Signed in');
    // No account is signed in: its verifiedUntil is 0, an absent time, not 1 January 1970.
    expect(await membership.locator('dt', { hasText: 'Verified until' }).locator('xpath=../dd').textContent()).toBe(
      'never',
    );
    expect(await page.locator('main').textContent()).not.toContain('1970');
    // The next refresh asks the API again without any action.
    await page.waitForRequest((request) => request.url().endsWith('/api/v1/system/status'), { timeout: 8_000 });
    await expectAccessible(page);
    const stored = await page.evaluate(() => ({
      session: sessionStorage.length,
      local: localStorage.length,
      cookie: document.cookie,
    }));
    expect(stored).toEqual({ session: 1, local: 0, cookie: '' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows the envelope message and code for a wrong token, and stays signed out', async () => {
    const { page } = await web.open();
    await page.getByLabel('Token').fill('lpa_not-a-real-token-000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('auth.token_invalid');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await expectAccessible(page);
    await page.context().close();
  });

  it('forgets the token on sign-out, also across a reload', async () => {
    const { page, errors } = await web.open();
    await signIn(page, web.svc.current.token);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload();
    await page.getByLabel('Token').waitFor();
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('is reachable from its own two origins only: the API answers 127.0.0.1 and localhost, and refuses any other page', async () => {
    for (const origin of [`http://127.0.0.1:${port()}`, `http://localhost:${port()}`]) {
      const answer = await raw(port(), '/api/v1/version', {
        method: 'GET',
        headers: { origin, authorization: `Bearer ${web.svc.current.token}` },
      });
      expect(answer.status).toBe(200);
    }
    for (const origin of [`http://127.0.0.1:${port() + 1}`, `http://[::1]:${port()}`, 'null']) {
      const answer = await raw(port(), '/api/v1/version', {
        headers: { origin, authorization: `Bearer ${web.svc.current.token}` },
      });
      expect([answer.status, answer.json.error.code]).toEqual([403, 'request.origin_forbidden']);
    }
  });

  describe('another site', () => {
    let foreign: Server;
    let foreignPort: number;
    beforeAll(async () => {
      foreignPort = await freePort();
      const script = /src="(\/assets\/[^"]+[.]js)"/.exec((await file('/')).text)![1]!;
      const html = foreignPage(`http://127.0.0.1:${port()}`, web.svc.current.token, script);
      foreign = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
      await new Promise<void>((resolve) => foreign.listen(foreignPort, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => foreign.close(() => resolve())));

    it('can neither frame the console, nor read it, nor drive its API with a stolen token', async () => {
      const context = await web.browser().newContext();
      const page = await context.newPage();
      // localhost:<other port> is another site than 127.0.0.1:<service port>.
      await page.goto(`http://localhost:${foreignPort}/`);
      await page.waitForFunction(() => document.title.startsWith('{'), undefined, { timeout: 30_000 });
      expect(JSON.parse(await page.title())).toEqual({ read: 'blocked', drive: 'blocked', script: 'blocked' });
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame).toBeDefined();
      expect(await frame!.locator('button, input').count()).toBe(0);
      await context.close();
    });
  });
});

/** A hostile page: frames the console, fetches it, includes its script, and calls the API with a token it somehow holds. */
function foreignPage(target: string, token: string, script: string): string {
  return `<!doctype html><html><head><title>working</title></head><body><iframe src="${target}/"></iframe><script>
  (async () => {
    const results = {};
    try { await fetch(${JSON.stringify(target)} + '/'); results.read = 'read'; } catch { results.read = 'blocked'; }
    try {
      const r = await fetch(${JSON.stringify(target)} + '/api/v1/version', { headers: { authorization: 'Bearer ' + ${JSON.stringify(token)} } });
      results.drive = 'answered ' + r.status;
    } catch { results.drive = 'blocked'; }
    results.script = await new Promise((resolve) => {
      const script = document.createElement('script');
      script.src = ${JSON.stringify(target + script)};
      script.onload = () => resolve('loaded');
      script.onerror = () => resolve('blocked');
      document.body.appendChild(script);
    });
    await new Promise((r) => setTimeout(r, 300));
    document.title = JSON.stringify(results);
  })();
  </script></body></html>`;
}
