import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/schemas/run';
import { ensureChromium } from './chromium';
import { RUNTIMES, type RunningService, startService } from './service';
import { laterApiClient } from './api-client';

const browser = ensureChromium();

/** What a page of the run sees of the settings. */
const seen = (page: Page) =>
  page.evaluate(() => ({
    userAgent: navigator.userAgent,
    languages: [...navigator.languages],
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    // Only the width is claimed: headless Chromium gives some tabs a height of its own choosing.
    outerWidth: window.outerWidth,
  }));

/** What a dedicated worker of the page sees: the process-wide settings reach workers too. */
const seenByWorker = (page: Page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        const source =
          'postMessage([navigator.userAgent, [...navigator.languages], Intl.DateTimeFormat().resolvedOptions().timeZone])';
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
        worker.onmessage = (event) => resolve(event.data);
      }),
  );

describe.skipIf('skip' in browser).each(RUNTIMES)(
  'the browser settings a profile keeps, on %s',
  { timeout: 120_000 },
  (runtime) => {
    let service: RunningService;
    let pages: Server;
    let site: string;
    const api = laterApiClient(() => service);
    const startAndRead = async (id: string, body: Record<string, unknown> = {}) => {
      const started = await api(`/api/v1/profiles/${id}/start`, { method: 'POST', body });
      expect(started.status, JSON.stringify(started.json)).toBe(200);
      const run = started.json as Run;
      const client = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint!, defaultViewport: null });
      try {
        // A start answers before its pages have loaded: the first tab may show the new tab page for a
        // moment, and a start page opened over DevTools may still be on its way (an evaluation there
        // then loses its context to the navigation). Every start here has start pages on this site.
        let opened = await client.pages();
        for (let waited = 0; waited < 5_000 && opened.some((page) => !page.url().startsWith(site)); waited += 100) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          opened = await client.pages();
        }
        await Promise.all(opened.map((page) => page.waitForFunction(() => document.readyState === 'complete')));
        const [first] = opened;
        const other = await client.newPage();
        await other.goto('about:blank');
        // A tab in the background has no window size of its own to show.
        await first!.bringToFront();
        return {
          run,
          urls: opened.map((page) => page.url()).sort(),
          first: await seen(first!),
          other: await (await other.bringToFront(), seen(other)),
          worker: await seenByWorker(other),
        };
      } finally {
        await client.disconnect();
        await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' });
      }
    };

    beforeAll(async () => {
      pages = createServer((_, res) => res.end('<!doctype html><title>start page</title>'));
      await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
      site = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
      service = await startService(runtime, undefined, { LPA_BROWSER: (browser as { path: string }).path });
    });
    afterAll(async () => {
      await service?.stop('SIGTERM');
      pages?.close();
    });

    it('keeps the defaults for a profile given none, and changes only the settings a change gives', async () => {
      const made = await api('/api/v1/profiles', { method: 'POST', body: { name: 'plain' } });
      expect(made.json.browser).toEqual({
        headless: false,
        window: null,
        start_urls: [],
        user_agent: null,
        languages: null,
        timezone: null,
        args: [],
      });
      const changed = await api(`/api/v1/profiles/${made.json.id}`, {
        method: 'PATCH',
        body: { browser: { timezone: 'Asia/Tokyo', headless: true } },
      });
      expect(changed.json.browser).toMatchObject({ timezone: 'Asia/Tokyo', headless: true, user_agent: null });
      const again = await api(`/api/v1/profiles/${made.json.id}`, {
        method: 'PATCH',
        body: { browser: { user_agent: 'Agent/1' } },
      });
      expect(again.json.browser).toMatchObject({ timezone: 'Asia/Tokyo', headless: true, user_agent: 'Agent/1' });
    });

    it('refuses settings it cannot apply, as a start refuses its switches', async () => {
      for (const browserSettings of [
        { args: ['--user-data-dir=/tmp/x'] },
        { args: ['--proxy-server=x:1'] },
        { args: ['--user-agent=x'] },
        { args: ['-lang=de'] },
        { timezone: 'Mars/Olympus' },
        { timezone: '+01:00' },
        { languages: ['en-US,de'] },
        { languages: [] },
        { window: { width: 10, height: 600 } },
        { user_agent: 'two\nlines' },
        { start_urls: ['javascript:alert(1)'] },
        { extra: true },
      ]) {
        const refused = await api('/api/v1/profiles', {
          method: 'POST',
          body: { name: 'bad', browser: browserSettings },
        });
        expect(refused.status, JSON.stringify(browserSettings)).toBe(400);
        expect(refused.json.error.code).toBe('request.invalid');
      }
    });

    it("applies the profile's settings at every start, in every tab and worker, and a start's own for that run only", async () => {
      const settings = {
        headless: true,
        window: { width: 1111, height: 777 },
        user_agent: 'LPA-Test/1.0 (settings)',
        languages: ['de-DE', 'fr'],
        timezone: 'Asia/Tokyo',
        start_urls: [`${site}/one`, `${site}/two`],
        args: ['--disable-gpu'],
      };
      const id = (await api('/api/v1/profiles', { method: 'POST', body: { name: 'set', browser: settings } })).json.id;
      const kept = await startAndRead(id);
      expect(kept.run.headless).toBe(true);
      expect(kept.urls).toEqual([`${site}/one`, `${site}/two`]);
      for (const page of [kept.first, kept.other])
        expect(page).toEqual({
          userAgent: 'LPA-Test/1.0 (settings)',
          languages: ['de-DE', 'fr'],
          timeZone: 'Asia/Tokyo',
          outerWidth: 1111,
        });
      expect(kept.worker).toEqual(['LPA-Test/1.0 (settings)', ['de-DE', 'fr'], 'Asia/Tokyo']);

      const overridden = await startAndRead(id, {
        user_agent: 'Other/2',
        languages: ['ja'],
        timezone: 'America/New_York',
        window: { width: 900, height: 700 },
      });
      expect(overridden.first).toEqual({
        userAgent: 'Other/2',
        languages: ['ja'],
        timeZone: 'America/New_York',
        outerWidth: 900,
      });

      // null in a start is the browser's own for that run; the profile keeps its settings.
      const browserOwn = await startAndRead(id, { user_agent: null, timezone: null });
      expect(browserOwn.first.userAgent).toMatch(/Chrome\//);
      expect(browserOwn.first.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect((await api(`/api/v1/profiles/${id}`)).json.browser).toEqual(settings);
    });
  },
);
