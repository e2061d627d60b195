import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/schemas/run';
import type { SynchronizerStatus } from '../../src/shared/schemas/synchronizer';
import { ensureChromium } from './chromium';
import { RUNTIMES, type RunningService, startService } from './service';
import { laterApiClient } from './api-client';

const chromium = ensureChromium();

/** What a page of the test site reported: which profile (its cookie), when the site heard it, and what. */
interface Seen {
  profile: string;
  at: number;
  type: string;
  id?: string;
  x?: number;
  y?: number;
  value?: string;
  key?: string;
  scroll?: number;
  path?: string;
}

/**
 * Layout `a` and layout `b` hold the same elements in another order and at other places (and `b` has
 * a tall block above them): element mode must find each by what it is, coordinates mode hits places.
 */
const ELEMENTS = [
  '<button id="alpha">Alpha</button>',
  '<button name="beta">Beta</button>',
  '<button>Gamma</button>',
  '<input id="field" placeholder="type here">',
  '<input id="secret" type="password">',
  '<a href="/next">Next page</a>',
  '<a href="/popup" target="_blank">Popup</a>',
];
const RECORDER = `<script>
  const rec = (e) => fetch('/record', { method: 'POST', body: JSON.stringify(e), keepalive: true });
  addEventListener('click', (e) => rec({ type: 'click', id: e.target.id || e.target.getAttribute('name') || e.target.textContent, x: e.clientX, y: e.clientY }), true);
  addEventListener('input', (e) => rec({ type: 'input', id: e.target.id, value: e.target.value }), true);
  addEventListener('keydown', (e) => rec({ type: 'key', key: e.key }), true);
  let t = 0; addEventListener('scroll', () => { clearTimeout(t); t = setTimeout(() => rec({ type: 'scroll', scroll: scrollY }), 100); });
  rec({ type: 'load', path: location.pathname });
  addEventListener('pageshow', () => rec({ type: 'show', path: location.pathname }));
</script>`;

function page(layout: string): string {
  const items = layout === 'b' ? [...ELEMENTS].reverse() : ELEMENTS;
  const spacer = layout === 'b' ? '<div style="height:260px">spacer</div>' : '';
  return `<!doctype html><title>sync ${layout}</title><body style="margin:8px">${spacer}${items
    .map((item) => `<p style="margin:6px ${layout === 'b' ? 120 : 10}px">${item}</p>`)
    .join('')}<div style="height:3000px"></div>${RECORDER}</body>`;
}

/** The test site: a page per layout (chosen by the profile's cookie) that reports to `/record` what it receives. */
function site(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? '').split(/;\s*/).map((pair) => pair.split('=') as [string, string]),
    );
    if (req.url === '/record') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ profile: cookies.p ?? '?', at: Date.now(), ...JSON.parse(body) });
        res.end();
      });
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end(page(cookies.layout ?? 'a'));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

async function until<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf('skip' in chromium).each(RUNTIMES)(
  'the synchronizer with real browsers on %s',
  { timeout: 180_000 },
  (runtime) => {
    let service: RunningService;
    let web: Awaited<ReturnType<typeof site>>;
    const connected: Browser[] = [];
    const api = laterApiClient(() => service);
    const profile = async () =>
      (await api('/api/v1/profiles', { method: 'POST', body: { name: `sync-${crypto.randomUUID().slice(0, 8)}` } }))
        .json.id as string;
    const status = async () => (await api('/api/v1/automation/synchronizer')).json as SynchronizerStatus;
    /** Puppeteer on a running profile, with the test site's cookies saying who it is and which layout it sees. */
    const drive = async (id: string, layout: string): Promise<Browser> => {
      const run = (await api(`/api/v1/profiles/${id}/run`)).json as Run;
      const browser = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint!, defaultViewport: null });
      connected.push(browser);
      const session = await browser.target().createCDPSession();
      await session.send('Storage.setCookies', {
        cookies: [
          { name: 'p', value: id, domain: '127.0.0.1', path: '/' },
          { name: 'layout', value: layout, domain: '127.0.0.1', path: '/' },
        ],
      });
      return browser;
    };
    const firstPage = async (browser: Browser): Promise<Page> => (await browser.pages())[0]!;
    const of = (id: string, type: string) => web.seen.filter((seen) => seen.profile === id && seen.type === type);

    afterEach(async () => {
      await api('/api/v1/automation/synchronizer/stop', { method: 'POST', body: { stop_browsers: true } });
    });
    beforeAll(async () => {
      web = await site();
      service = await startService(runtime, undefined, { LPA_BROWSER: (chromium as { path: string }).path });
    });
    afterAll(async () => {
      for (const browser of connected) await browser.disconnect().catch(() => {});
      await service?.stop('SIGTERM');
      web?.server.close();
    });

    it('refuses what cannot start, and reports idle with every field', async () => {
      const idle = await status();
      expect(idle).toMatchObject({
        running: false,
        source_id: null,
        follower_ids: [],
        tabs: [],
        events: [],
        error: null,
      });
      expect(idle.options).toEqual({
        clicks: true,
        keys: true,
        text_input: true,
        scroll: true,
        navigation: true,
        tabs: true,
        delay_ms: { min: 0, max: 0 },
        copy_window_size: true,
      });
      const a = await profile();
      const self = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: { source_id: a, follower_ids: [a] },
      });
      expect(self.status).toBe(400);
      const backwards = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: { source_id: a, follower_ids: ['x'], options: { delay_ms: { min: 50, max: 10 } } },
      });
      expect(backwards.status).toBe(400);
      const missing = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: { source_id: a, follower_ids: ['nope'] },
      });
      expect(missing.status).toBe(404);
      expect((await api('/api/v1/runs')).json.items).toEqual([]);
      expect((await api('/api/v1/automation/synchronizer/stop', { method: 'POST' })).json.error.code).toBe(
        'synchronizer.not_running',
      );
    });

    it('element mode: three profiles, a follower with another layout; clicks, typing, keys, scroll, navigation, a new tab; a killed follower is reported while the other goes on', async () => {
      const [source, other, same] = [await profile(), await profile(), await profile()];
      for (const id of [source, other, same])
        expect((await api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true } })).status).toBe(
          200,
        );
      const sourceBrowser = await drive(source, 'a');
      await drive(other, 'b');
      await drive(same, 'a');

      const started = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: { source_id: source, follower_ids: [other, same], mode: 'element' },
      });
      if (started.status !== 200) console.log(JSON.stringify(started.json), service.output().slice(-3000));
      expect(started.status).toBe(200);
      expect(started.json).toMatchObject({
        running: true,
        source_id: source,
        follower_ids: [other, same],
        mode: 'element',
      });
      const again = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: { source_id: other, follower_ids: [same] },
      });
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('synchronizer.running');

      // The address bar: the source goes to the site, the followers follow.
      const tab = await firstPage(sourceBrowser);
      await tab.goto(`${web.url}/`);
      for (const id of [source, other, same]) await until(`${id} loads the site`, () => of(id, 'load').length > 0);
      // The capture lives in a world of its own: the page's globals hold nothing of it.
      expect(await tab.evaluate(() => Object.keys(globalThis).filter((key) => key.includes('lpa')))).toEqual([]);

      // Each element is found by what it is (id, name, text) on the follower whose layout differs.
      for (const selector of ['#alpha', 'button[name=beta]', 'p:nth-of-type(3) button']) {
        const box = (await (await tab.$(selector))!.boundingBox())!;
        await tab.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      }
      const clicked = ['alpha', 'beta', 'Gamma'];
      for (const id of [other, same])
        await until(`${id} clicks the same three elements`, () => of(id, 'click').length >= 3);
      for (const id of [source, other, same]) expect(of(id, 'click').map((seen) => seen.id)).toEqual(clicked);
      const sourceY = of(source, 'click')[0]!.y!;
      expect(Math.abs(of(other, 'click')[0]!.y! - sourceY)).toBeGreaterThan(100);

      // Typing into the field, then into the password field, whose text is never captured.
      const field = (await (await tab.$('#field'))!.boundingBox())!;
      await tab.mouse.click(field.x + 5, field.y + 5);
      await tab.keyboard.type('hello');
      await tab.keyboard.press('Backspace');
      const secret = (await (await tab.$('#secret'))!.boundingBox())!;
      await tab.mouse.click(secret.x + 5, secret.y + 5);
      await tab.keyboard.type('hunter2');
      await tab.keyboard.press('Enter');
      for (const id of [other, same]) {
        await until(`${id} types hell`, () =>
          of(id, 'input').some((seen) => seen.id === 'field' && seen.value === 'hell'),
        );
        await until(`${id} presses Enter`, () => of(id, 'key').some((seen) => seen.key === 'Enter'));
        expect(of(id, 'input').filter((seen) => seen.id === 'secret')).toEqual([]);
      }

      // Scroll.
      await tab.mouse.wheel({ deltaY: 600 });
      await until('the source scrolls', () => of(source, 'scroll').length > 0);
      for (const id of [other, same])
        await until(`${id} scrolls`, () => of(id, 'scroll').some((seen) => seen.scroll! > 100));

      // A click's navigation is the click's: each follower loads /next once.
      // Puppeteer scrolls it into view, then clicks it with the mouse.
      await (await tab.$('a'))!.click();
      for (const id of [source, other, same])
        await until(`${id} follows the link`, () => of(id, 'load').some((seen) => seen.path === '/next'));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const id of [other, same]) expect(of(id, 'load').filter((seen) => seen.path === '/next')).toHaveLength(1);

      // Back and forward, as the browser's buttons: each follower walks its own history the same way
      // (a page restored from the back/forward cache loads nothing, but shows again).
      const shows = (id: string, path: string) => of(id, 'show').filter((seen) => seen.path === path).length;
      const shown = new Map([other, same].map((id) => [id, { home: shows(id, '/'), next: shows(id, '/next') }]));
      await tab.goBack();
      for (const id of [other, same]) await until(`${id} goes back`, () => shows(id, '/') > shown.get(id)!.home);
      await tab.goForward();
      for (const id of [other, same]) await until(`${id} goes forward`, () => shows(id, '/next') > shown.get(id)!.next);

      // A new tab, and an address-bar navigation in it.
      const opened = await sourceBrowser.newPage();
      await opened.goto(`${web.url}/tab`);
      for (const id of [other, same])
        await until(`${id} opens the tab`, () => of(id, 'load').some((seen) => seen.path === '/tab'));
      const withTab = await status();
      expect(withTab.tabs).toHaveLength(2);
      for (const tabOf of withTab.tabs) expect(tabOf.followers.every((f) => f.target_id !== null)).toBe(true);
      const counted = withTab.events.find((events) => events.profile_id === same)!;
      // A miss names its reason in the status's error: shown with the failure, should this ever fail.
      expect(counted, `the synchronizer's error: ${JSON.stringify(withTab.error)}`).toMatchObject({
        alive: true,
        missed: 0,
        dropped: 0,
      });
      expect(counted.replayed).toBeGreaterThanOrEqual(10);
      expect(counted.captured).toBeGreaterThanOrEqual(counted.replayed);
      await opened.close();
      await until('the followers close the tab', async () => (await status()).tabs.length === 1);

      // A tab the page opens: each follower's own page opens it from the mirrored click, and that tab is
      // paired with the source's; none is opened twice.
      await (await tab.$('a[target]'))!.click();
      for (const id of [source, other, same])
        await until(`${id} opens the popup`, () => of(id, 'load').some((seen) => seen.path === '/popup'));
      await until('the popup is paired', async () => {
        const now = await status();
        return now.tabs.length === 2 && now.tabs.every((paired) => paired.followers.every((f) => f.target_id !== null));
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const id of [other, same]) expect(of(id, 'load').filter((seen) => seen.path === '/popup')).toHaveLength(1);
      const popup = (await sourceBrowser.pages()).find((open) => open.url().endsWith('/popup'))!;
      await popup.close();
      await until('the followers close the popup', async () => (await status()).tabs.length === 1);

      // A killed follower: named in the error, its events dropped; the other one goes on.
      const killed = (await api(`/api/v1/profiles/${other}/run`)).json as Run;
      process.kill(killed.pid!, 'SIGKILL');
      const gammaClicks = () => of(same, 'click').length;
      const before = gammaClicks();
      let lost: SynchronizerStatus | null = null;
      for (let i = 0; i < 50 && !lost; i++) {
        const alpha = (await (await tab.$('#alpha'))!.boundingBox())!;
        await tab.mouse.click(alpha.x + alpha.width / 2, alpha.y + alpha.height / 2);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const now = await status();
        if (now.error?.code === 'synchronizer.follower_lost') lost = now;
      }
      expect(lost!.running).toBe(true);
      expect(lost!.error).toMatchObject({ code: 'synchronizer.follower_lost', profile_id: other });
      expect(lost!.events.find((events) => events.profile_id === other)!.alive).toBe(false);
      await until('the other follower goes on', () => gammaClicks() > before);
      const last = await status();
      expect(last.events.find((events) => events.profile_id === other)!.dropped).toBeGreaterThan(0);
      expect(last.events.find((events) => events.profile_id === same)!.last_event_at).toBeGreaterThan(0);

      // A follower taken out, then the stop with the browsers.
      const removed = await api(`/api/v1/automation/synchronizer/followers/${other}`, { method: 'DELETE' });
      expect(removed.status).toBe(200);
      expect(removed.json.follower_ids).toEqual([same]);
      expect((await api('/api/v1/automation/synchronizer/followers/nobody', { method: 'DELETE' })).status).toBe(404);
      const stopped = await api('/api/v1/automation/synchronizer/stop', {
        method: 'POST',
        body: { stop_browsers: true },
      });
      expect(stopped.status).toBe(200);
      expect(stopped.json).toMatchObject({ running: false, source_id: source, follower_ids: [same] });
      expect((await api('/api/v1/runs')).json.items).toEqual([]);

      const audit = (await api('/api/v1/audit?limit=200')).json.items as {
        action: string;
        entity_id: string;
        result: string;
        details: Record<string, unknown>;
      }[];
      const ok = (action: string) => audit.filter((entry) => entry.action === action && entry.result === 'ok');
      expect(ok('synchronizer.start')[0]).toMatchObject({
        entity_id: source,
        details: { follower_ids: [other, same] },
      });
      expect(ok('synchronizer.stop')[0]).toMatchObject({ entity_id: source, details: { stop_browsers: true } });
      expect(ok('synchronizer.followers_remove')[0]!.entity_id).toBe(other);
      expect(
        audit.find((entry) => entry.action === 'synchronizer.followers_remove' && entry.result === 'error'),
      ).toMatchObject({
        error_code: 'resource.not_found',
      });
      expect(JSON.stringify(audit)).not.toContain('hunter2');
      expect(service.output()).not.toContain('hunter2');
    });

    it('coordinates mode: starts the profiles that are not running, hits the same positions, each follower within delay_ms', async () => {
      const [source, follower] = [await profile(), await profile()];
      const started = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: {
          source_id: source,
          follower_ids: [follower],
          mode: 'coordinates',
          options: { delay_ms: { min: 150, max: 400 } },
          headless: true,
        },
      });
      expect(started.status).toBe(200);
      expect((await api('/api/v1/runs')).json.items.map((run: Run) => run.profile_id).sort()).toEqual(
        [source, follower].sort(),
      );
      const sourceBrowser = await drive(source, 'a');
      await drive(follower, 'a');
      const tab = await firstPage(sourceBrowser);
      await tab.goto(`${web.url}/`);
      await until('the follower loads the site', () => of(follower, 'load').length > 0);

      const points = [
        [60, 30],
        [30, 70],
        [100, 110],
        [15, 150],
      ] as const;
      for (const [x, y] of points) {
        await tab.mouse.click(x, y);
        await new Promise((resolve) => setTimeout(resolve, 600));
      }
      await until('the follower clicks four times', () => of(follower, 'click').length >= 4);
      const theirs = of(follower, 'click');
      const ours = of(source, 'click');
      expect(theirs.map((seen) => [seen.x, seen.y])).toEqual(points.map(([x, y]) => [x, y]));
      expect(ours.map((seen) => [seen.x, seen.y])).toEqual(points.map(([x, y]) => [x, y]));
      for (const [at, seen] of theirs.entries()) {
        const waited = seen.at - ours[at]!.at;
        // The site hears each click a little after it happens; the wait is the synchronizer's. The
        // upper bound leaves room for a machine busy with other test files (a click's delivery alone
        // took 650 ms there): what it rules out is a follower that waits far past delay_ms.
        expect(waited).toBeGreaterThanOrEqual(150 - 50);
        expect(waited).toBeLessThanOrEqual(400 + 1_500);
      }
      const stopped = await api('/api/v1/automation/synchronizer/stop', { method: 'POST', body: {} });
      expect(stopped.status).toBe(200);
      expect(stopped.json.events[0]).toMatchObject({ profile_id: follower, missed: 0, dropped: 0 });
      // The browsers go on without stop_browsers, and a next session captures the pages the last one did.
      expect((await api('/api/v1/runs')).json.items).toHaveLength(2);
      const again = await api('/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: { source_id: source, follower_ids: [follower], mode: 'coordinates', options: { scroll: false } },
      });
      expect(again.status).toBe(200);
      await tab.mouse.click(40, 90);
      await until('the follower clicks again', () => of(follower, 'click').length >= 5);
      expect(of(follower, 'click').at(-1)).toMatchObject({ x: 40, y: 90 });
      const audit = (await api('/api/v1/audit?category=startup&limit=50')).json.items as { action: string }[];
      expect(audit.filter((entry) => entry.action === 'runs.start').length).toBeGreaterThanOrEqual(2);
    });
  },
);
