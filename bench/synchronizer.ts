/**
 * The synchronizer's added delay (`npm run bench -- --runs`, docs/benchmarks.md#runs): a click on the
 * source profile's page, through Puppeteer as a user's script would, to the same click on each
 * follower's page, in element mode with `delay_ms` 0, against the same click replayed directly over
 * DevTools on the followers by the bench itself (the synchronizer's three mouse events, and Puppeteer's
 * `page.click`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import type { Run } from '../src/shared/schemas/run';
import type { SynchronizerStatus } from '../src/shared/schemas/synchronizer';
import { call, ok } from './api';
import { type Bench, connect, log, ms, newProfile, startRun, times, wait } from './browsers';
import { percentiles } from './load';

/** Followers of each measured session: the first 1, 5 and 10 of the same ten running profiles. */
const FOLLOWERS = [1, 5, 10] as const;
/** Clicks before each block that are not measured: the first of a new session or a new side warm its path. */
const WARM_UP = 2;
/** A follower's click that has not come by then is an error of the run, not a slow sample. */
const CLICK_WAIT_MS = 10_000;
/** The pause between samples, so that a sample's replays never queue behind the one before. */
const GAP_MS = 50;

/**
 * A button that records when each click reaches the page, on the page's own clock: the time origin
 * plus `performance.now()` is the machine's clock to a fraction of a millisecond, the same in every
 * browser on it. The record goes to the bench with the browser's name (a cookie the bench set); the
 * time was taken before it left.
 */
const PAGE = `<!doctype html><title>sync bench</title><body style="margin:20px">
<button id="target" style="width:240px;height:60px">Target</button>
<script>
  addEventListener('click', (e) => {
    const at = performance.timeOrigin + performance.now();
    fetch('/click', { method: 'POST', body: JSON.stringify({ at, id: e.target.id }), keepalive: true });
  }, true);
  fetch('/load', { method: 'POST' });
</script></body>`;

/** The bench's site: each browser's loads and click times, by the name in its cookie. */
async function clickSite() {
  const clicks = new Map<string, number[]>();
  const loads = new Map<string, number>();
  const who = (req: IncomingMessage) => /(?:^|;\s*)who=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '?';
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('content-type', 'text/html');
      res.end(PAGE);
      return;
    }
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const name = who(req);
      if (req.url === '/load') loads.set(name, (loads.get(name) ?? 0) + 1);
      else {
        const click = JSON.parse(body) as { at: number; id: string };
        if (click.id === 'target') clicks.set(name, [...(clicks.get(name) ?? []), click.at]);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, clicks, loads };
}

/** Polls the bench's own records (no request) until `done`, or fails with `what`. */
async function until(what: string, done: () => boolean, limit = CLICK_WAIT_MS): Promise<void> {
  const end = performance.now() + limit;
  while (!done()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(2);
  }
}

/** One running profile as the bench drives it: its browser over LPA's endpoint and the name its pages report. */
interface Driven {
  id: string;
  name: string;
  browser: Browser;
}

export async function synchronizerFigures({ service, row, notes }: Bench, samples: number): Promise<void> {
  const followerCount = Math.max(...FOLLOWERS);
  log(`synchronizer: a source and ${FOLLOWERS.join(', ')} followers, ${samples} clicks each way per session`);
  const site = await clickSite();
  const ids: string[] = [];
  for (let i = 0; i <= followerCount; i++) ids.push(await newProfile(service, `bench sync ${i}`));
  const driven: Driven[] = [];
  try {
    await Promise.all(ids.map((id) => startRun(service, id)));
    for (const [i, id] of ids.entries()) {
      const run = await ok<Run>(service, `/api/v1/profiles/${id}/run`);
      const browser = await connect({ browserWSEndpoint: run.ws_endpoint! });
      const name = i === 0 ? 'source' : `f${i}`;
      const session = await browser.target().createCDPSession();
      await session.send('Storage.setCookies', {
        cookies: [{ name: 'who', value: name, domain: '127.0.0.1', path: '/' }],
      });
      await session.detach();
      driven.push({ id, name, browser });
    }
    const [source, ...followers] = driven as [Driven, ...Driven[]];
    const sourcePage = (await source.browser.pages())[0]!;
    const clicksOf = (name: string) => site.clicks.get(name)?.length ?? 0;

    /** Starts a session with `mirrored` and brings every page to the site through it (the address bar mirrored). */
    const startSession = async (mirrored: Driven[]) => {
      const started = await call<SynchronizerStatus>(service, '/api/v1/automation/synchronizer/start', {
        method: 'POST',
        body: {
          source_id: source.id,
          follower_ids: mirrored.map((f) => f.id),
          mode: 'element',
          options: { delay_ms: { min: 0, max: 0 } },
        },
      });
      if (started.status !== 200) throw new Error(`the synchronizer did not start: ${JSON.stringify(started.json)}`);
      const loaded = new Map(mirrored.map((f) => [f.name, site.loads.get(f.name) ?? 0]));
      await sourcePage.goto(site.url, { waitUntil: 'load' });
      await until('the followers to load the site', () =>
        mirrored.every((f) => (site.loads.get(f.name) ?? 0) > loaded.get(f.name)!),
      );
    };
    const stopSession = () =>
      ok(service, '/api/v1/automation/synchronizer/stop', { method: 'POST', body: { stop_browsers: false } });

    /**
     * `count` clicks on the source, each followed by `replay` (null through the synchronizer, else the
     * bench's own replay on the followers), each sample waited for on every follower: each follower's
     * click time minus the source's.
     */
    const block = async (mirrored: Driven[], count: number, replay: (() => Promise<unknown>) | null) => {
      const delays: number[] = [];
      for (let i = 0; i < WARM_UP + count; i++) {
        const before = new Map([source, ...mirrored].map((d) => [d.name, clicksOf(d.name)]));
        await sourcePage.click('#target');
        await replay?.();
        await until(`click ${i} on every follower`, () =>
          [source, ...mirrored].every((d) => clicksOf(d.name) > before.get(d.name)!),
        ).catch(async (error: Error) => {
          const status = await ok<SynchronizerStatus>(service, '/api/v1/automation/synchronizer');
          throw new Error(
            `${error.message}; the synchronizer: ${JSON.stringify({ events: status.events, error: status.error })}`,
          );
        });
        if (i >= WARM_UP) {
          const at = site.clicks.get(source.name)!.at(-1)!;
          for (const f of mirrored) delays.push(site.clicks.get(f.name)!.at(-1)! - at);
        }
        await wait(GAP_MS);
      }
      return delays;
    };

    for (const n of FOLLOWERS) {
      const mirrored = followers.slice(0, n);
      // The bench's own Puppeteer pages of the followers, once the synchronizer brought them to the site.
      await startSession(mirrored);
      const followerPages: Page[] = await Promise.all(
        mirrored.map(async (f) => (await f.browser.pages()).find((page) => page.url() === site.url)!),
      );
      // The replay the synchronizer makes, without its capture and its element lookup: the three mouse
      // events on each follower, at the button's centre (taken once), on a DevTools session of the bench's.
      const targets = await Promise.all(
        followerPages.map(async (page) => {
          const box = (await (await page.$('#target'))!.boundingBox())!;
          return { session: await page.createCDPSession(), x: box.x + box.width / 2, y: box.y + box.height / 2 };
        }),
      );
      const dispatch = () =>
        Promise.all(
          targets.map(async ({ session, x, y }) => {
            const at = { x, y, button: 'left' as const, clickCount: 1 };
            await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
            await session.send('Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...at });
            await session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...at });
          }),
        );
      const click = () => Promise.all(followerPages.map((page) => page.click('#target')));
      const taken = { synchronizer: [] as number[], dispatch: [] as number[], click: [] as number[] };
      // Two blocks each, in the order synchronizer, dispatch, click, click, dispatch, synchronizer: what
      // the machine does meanwhile falls on each alike. The session of the first block is open already.
      const half = Math.ceil(samples / 2);
      taken.synchronizer.push(...(await block(mirrored, half, null)));
      await stopSession();
      taken.dispatch.push(...(await block(mirrored, half, dispatch)));
      taken.click.push(...(await block(mirrored, half, click)));
      taken.click.push(...(await block(mirrored, samples - half, click)));
      taken.dispatch.push(...(await block(mirrored, samples - half, dispatch)));
      await Promise.all(targets.map(({ session }) => session.detach()));
      await startSession(mirrored);
      taken.synchronizer.push(...(await block(mirrored, samples - half, null)));
      const status = await ok<SynchronizerStatus>(service, '/api/v1/automation/synchronizer');
      await stopSession();
      const missed = status.events.reduce((sum, e) => sum + e.missed + e.dropped, 0);
      if (missed > 0) notes.push(`Synchronizer with ${n} followers: ${missed} events missed or dropped.`);

      const through = percentiles(taken.synchronizer);
      const reference = percentiles(taken.dispatch);
      const clicked = percentiles(taken.click);
      for (const at of ['p50', 'p99'] as const)
        row(
          'Synchronizer',
          `source click → follower click, ${n} follower${n === 1 ? '' : 's'}, delay_ms 0, ${at} of ${through.n}`,
          ms(through[at]),
          {
            reference: `the three mouse events over DevTools on each follower after the source's click ${ms(reference[at])} (Puppeteer's page.click instead: ${ms(clicked[at])})`,
            ratio: times(through[at] / reference[at]),
          },
        );
    }
  } finally {
    await Promise.all(driven.map((d) => d.browser.disconnect()));
    // The synchronizer is stopped already unless a block failed; the browsers go in any case.
    await call(service, '/api/v1/automation/synchronizer/stop', { method: 'POST', body: { stop_browsers: false } });
    await Promise.all(ids.map((id) => call(service, `/api/v1/profiles/${id}/stop`, { method: 'POST' })));
    site.server.close();
  }
}
