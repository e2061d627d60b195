import { createServer, type Server } from 'node:http';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, ensureChromium } from './chromium';
import { freePort, raw, useService } from './service';

const browser = ensureChromium();
if ('skip' in browser) console.warn(`browser test skipped: ${browser.skip}`);

/** What a hostile page does: images, no-cors POSTs and form posts at the API, more than the throttle allows. */
function hostilePage(api: string): string {
  return `<!doctype html><html><body><script>
  const api = ${JSON.stringify(api)};
  const done = [];
  for (let i = 0; i < 25; i++) done.push(new Promise((r) => { const img = new Image(); img.onload = img.onerror = r; img.src = api + '/api/v1/version?i=' + i; }));
  for (let i = 0; i < 10; i++) done.push(fetch(api + '/api/v1/settings/logs', { method: 'PUT', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"retention_days":1}' }).catch(() => {}));
  for (let i = 0; i < 10; i++) done.push(fetch(api + '/api/v1/tokens', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"name":"evil","scopes":["secrets:read"]}' }).catch(() => {}));
  for (let i = 0; i < 5; i++) {
    const frame = document.createElement('iframe');
    frame.name = 'f' + i;
    document.body.appendChild(frame);
    done.push(new Promise((r) => frame.addEventListener('load', r, { once: true })));
    const form = document.createElement('form');
    form.method = 'POST'; form.action = api + '/api/v1/tokens'; form.target = frame.name; form.enctype = 'text/plain';
    const field = document.createElement('input');
    field.name = '{"name":"evil","scopes":["secrets:read"],"x":"'; field.value = '"}';
    form.appendChild(field);
    document.body.appendChild(form);
    form.submit();
  }
  Promise.all(done).then(() => { document.title = 'done'; });
  </script></body></html>`;
}

describe.skipIf('skip' in browser)('a web page in a real Chromium', { timeout: 120_000 }, () => {
  const svc = useService('workerd');
  let page: Server;
  let pagePort: number;
  beforeAll(async () => {
    pagePort = await freePort();
    page = createServer((_, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(hostilePage(`http://127.0.0.1:${svc.current.port}`)),
    );
    await new Promise<void>((resolve) => page.listen(pagePort, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => page.close(() => resolve())));

  it('changes nothing, adds a bounded number of audit entries, and cannot get the admin token a 429', async () => {
    const get = async (path: string) => (await raw(svc.current.port, path, { headers: svc.auth() })).json;
    const before = {
      settings: await get('/api/v1/settings/logs'),
      tokens: await get('/api/v1/tokens'),
      audit: (await get('/api/v1/audit?limit=1000')).items.length,
    };
    const instance = await chromium.launch({ executablePath: (browser as { path: string }).path, args: CHROMIUM_ARGS });
    try {
      const tab = await instance.newPage();
      // Served as http://localhost:<port>: another site than 127.0.0.1:<api port>, so Chromium sends Sec-Fetch-Site: cross-site.
      await tab.goto(`http://localhost:${pagePort}/`);
      await tab.waitForFunction(() => document.title === 'done', undefined, { timeout: 60_000 });
    } finally {
      await instance.close();
    }
    expect(await get('/api/v1/settings/logs')).toEqual(before.settings);
    expect(await get('/api/v1/tokens')).toEqual(before.tokens);
    const entries = (await get('/api/v1/audit?limit=1000')).items;
    const added = entries.slice(0, entries.length - before.audit);
    expect(added.length).toBeGreaterThan(0);
    expect(added.length).toBeLessThanOrEqual(6);
    expect(added.every((e: { error_code: string }) => e.error_code === 'request.origin_forbidden')).toBe(true);
    expect((await raw(svc.current.port, '/api/v1/version', { headers: svc.auth() })).status).toBe(200);
  });
});
