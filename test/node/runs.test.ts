import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Run } from '../../src/shared/schemas/run';
import { ensureChromium } from './chromium';
import { browsersUnder, isAlive, processTree } from './process-tree';
import { RUNTIMES, type RunningService, rawExchange, startService } from './service';
import { laterApiClient } from './api-client';

const browser = ensureChromium();

/** A page of the test's own, on loopback: what the clients open through a run's endpoint. */
function pageServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((_, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>lpa run page</title><p>hello</p>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}

/** The status a WebSocket handshake to `url` is answered with: 101 when the socket opens (it is closed at once). */
function handshake(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('unexpected-response', (_, res) => resolve(res.statusCode ?? 0));
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('error', reject);
  });
}

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf('skip' in browser).each(RUNTIMES)("a profile's browser on %s", { timeout: 120_000 }, (runtime) => {
  let service: RunningService;
  let page: { server: Server; url: string };
  const api = laterApiClient(() => service);
  const newProfile = async () =>
    (await api('/api/v1/profiles', { method: 'POST', body: { name: `run-${crypto.randomUUID().slice(0, 8)}` } })).json
      .id as string;
  const start = async (id: string, body: Record<string, unknown> = {}) =>
    api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true, ...body } });

  beforeAll(async () => {
    page = await pageServer();
    service = await startService(runtime, undefined, {
      LPA_BROWSER: (browser as { path: string }).path,
      LPA_BROWSER_NICE: '5',
    });
  });
  afterAll(async () => {
    await service?.stop('SIGTERM');
    page?.server.close();
  });

  it('starts one, hands Puppeteer and Playwright an endpoint on its own port, refuses a second start, stops it', async () => {
    const id = await newProfile();
    const started = await start(id);
    expect(started.status).toBe(200);
    const run = started.json as Run;
    expect(run).toMatchObject({ profile_id: id, state: 'running', headless: true, debug_port: null });
    expect(run.ws_endpoint).toMatch(
      new RegExp(`^ws://127\\.0\\.0\\.1:${service.port}/devtools/[A-Za-z0-9_-]{43}/browser$`),
    );
    expect(run.http_endpoint).toBe(run.ws_endpoint!.replace(/^ws:/, 'http:').replace(/\/browser$/, ''));

    const viaPuppeteer = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint! });
    const tab = await viaPuppeteer.newPage();
    await tab.goto(page.url);
    expect(await tab.title()).toBe('lpa run page');
    // Headless, the browser preloads no omnibox popup page (docs/runs.md#cpu): its targets are pages alone.
    const { targetInfos } = await (await viaPuppeteer.target().createCDPSession()).send('Target.getTargets');
    expect(targetInfos.filter((target) => target.type !== 'page')).toEqual([]);
    await viaPuppeteer.disconnect();

    for (const endpoint of [run.ws_endpoint!, run.http_endpoint!]) {
      const viaPlaywright = await chromium.connectOverCDP(endpoint);
      const context = viaPlaywright.contexts()[0]!;
      const opened = await context.newPage();
      await opened.goto(page.url);
      expect(await opened.title()).toBe('lpa run page');
      await opened.close();
      await viaPlaywright.close();
    }

    const again = await start(id);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: 'run.active', details: { run_id: run.id, state: 'running' } });
    expect((await api(`/api/v1/profiles/${id}/run`)).json).toMatchObject({ id: run.id, state: 'running' });
    expect((await api('/api/v1/runs')).json.items.map((live: Run) => live.id)).toContain(run.id);

    const stopped = await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(stopped.json).toMatchObject({ id: run.id, state: 'stopped', end_reason: 'stopped', ws_endpoint: null });
    expect(isAlive(run.pid!)).toBe(false);
    expect((await fetch(`${run.http_endpoint}/json/version`)).status).toBe(404);
    expect(await handshake(run.ws_endpoint!)).toBe(404);
    expect((await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' })).json.error.code).toBe('run.not_running');
  });

  it('keeps the endpoint from web pages: a foreign Origin is refused and audited, a rebinding Host is 421, other paths 404', async () => {
    const id = await newProfile();
    const run = (await start(id)).json as Run;
    expect(await handshake(run.ws_endpoint!, { origin: 'http://evil.example' })).toBe(403);
    // fetch never sends a Host of its own choosing; a raw request does, as a rebinding page's would.
    const path = new URL(`${run.http_endpoint}/json/version`).pathname;
    const rebinding = await rawExchange(
      service.port,
      `GET ${path} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(rebinding.status).toBe(421);
    const wrongSecret = run.http_endpoint!.replace(/devtools\/[^/]+/, `devtools/${'A'.repeat(43)}`);
    // A path that is no live run's endpoint is answered as any unknown route, on every runtime.
    for (const path of [`${wrongSecret}/json/version`, `${run.http_endpoint}/json/nothing`]) {
      const unknown = await fetch(path);
      expect(unknown.status).toBe(404);
      const body = await unknown.text();
      expect(JSON.parse(body).error.code).toBe('route.not_found');
      expect(body).not.toContain('A'.repeat(43));
      expect(body).not.toContain(new URL(run.http_endpoint!).pathname.split('/')[2]);
    }
    expect(await handshake(`${wrongSecret.replace(/^http:/, 'ws:')}/browser`)).toBe(404);
    // A WebSocket only on the run's socket paths, and only from a whole handshake (this one has no key).
    expect(await handshake(`${run.ws_endpoint!.replace(/\/browser$/, '')}/json/version`)).toBe(404);
    const broken = await rawExchange(
      service.port,
      `GET ${new URL(run.ws_endpoint!).pathname} HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n`,
    );
    // Under npm start the front door hands a live run's upgrade to the relay's `ws`, which answers 400; Bun and Deno answer as `ws` does.
    expect(broken.status).toBe(400);
    const audit = await api('/api/v1/audit?category=account&limit=20');
    expect(JSON.stringify(audit.json)).toContain('/devtools/[redacted]');
    await api(`/api/v1/profiles/${id}/stop`, { method: 'POST', body: { force: true } });
  });

  it('closes a client whose text is no DevTools message (1003), and the run and the service go on', async () => {
    const id = await newProfile();
    const run = (await start(id)).json as Run;
    // `null` once ended the launcher: the relay read a session from it.
    for (const text of ['null', '[]', '2', 'not json']) {
      const socket = new WebSocket(run.ws_endpoint!);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const closed = new Promise<number>((resolve) => socket.once('close', resolve));
      socket.send(text);
      expect(await closed).toBe(1003);
    }
    expect((await fetch(`http://127.0.0.1:${service.port}/status`)).status).toBe(200);
    expect((await api(`/api/v1/profiles/${id}/run`)).json).toMatchObject({ id: run.id, state: 'running' });
    const viaPuppeteer = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint! });
    expect(await viaPuppeteer.version()).toMatch(/Chrome/);
    await viaPuppeteer.disconnect();
    await api(`/api/v1/profiles/${id}/stop`, { method: 'POST', body: { force: true } });
  });

  // Linux's autogroup weighs each session alike, so a process's own nice would yield nothing to the API.
  it.skipIf(!existsSync('/proc/self/autogroup'))(
    'starts the browser in a session of its own at LPA_BROWSER_NICE (5 here), and gives it 0 once it answers',
    async () => {
      const id = await newProfile();
      const group = (pid: number) => readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
      // What the profile's browser's session weighs while the start is under way, read as often as it can be.
      const seen = new Set<string>();
      let starting = true;
      const watching = (async () => {
        while (starting) {
          for (const { pid, command } of browsersUnder(service.dataRoot)) {
            if (!command.includes(id)) continue;
            try {
              seen.add(group(pid).replace(/^\S+ /, ''));
            } catch {
              // Listed by ps, gone since: a process of the browser that ended at once.
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const run = (await start(id)).json as Run;
      starting = false;
      await watching;
      expect(seen).toContain('nice 5');
      expect(group(run.pid!)).toMatch(/^\/autogroup-\d+ nice 0$/);
      expect(group(run.pid!).split(' ')[0]).not.toBe(group(service.process.pid!).split(' ')[0]);
      await api(`/api/v1/profiles/${id}/stop`, { method: 'POST', body: { force: true } });
    },
  );

  it('records a browser killed from outside as crashed within seconds, and the next start works', async () => {
    const id = await newProfile();
    const run = (await start(id)).json as Run;
    process.kill(run.pid!, 'SIGKILL');
    const crashed = await until('the crash', async () => {
      const latest = (await api(`/api/v1/profiles/${id}/run`)).json as Run;
      return latest.state === 'crashed' ? latest : null;
    });
    expect(crashed).toMatchObject({ end_reason: 'exited', ws_endpoint: null });
    expect(crashed.error).toContain('SIGKILL');
    const next = await start(id);
    expect(next.status).toBe(200);
    expect(next.json.id).not.toBe(run.id);
    await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' });
  });

  it("refuses switches LPA owns, and writes the browser's output to the profile's kernel log", async () => {
    const id = await newProfile();
    for (const arg of [
      '--user-data-dir=/tmp/x',
      '--remote-debugging-port=9222',
      '--proxy-server=x:1',
      '-user-data-dir=/x',
    ]) {
      const refused = await start(id, { args: [arg] });
      expect(refused.status, arg).toBe(400);
    }
    const run = (await start(id, { args: ['--enable-logging=stderr', '--v=0'] })).json as Run;
    await api(`/api/v1/profiles/${id}/stop`, { method: 'POST' });
    const files = (await api('/api/v1/system/logs')).json.items as { stream: string; file: string }[];
    const kernel = files.find((file) => file.stream === 'kernel' && file.file.includes(id));
    expect(kernel?.file).toMatch(new RegExp(`^kernel-${id}-\\d{4}-\\d{2}-\\d{2}\\.log$`));
    const excerpt = await api(`/api/v1/system/logs/kernel/${kernel!.file}`);
    expect(excerpt.status).toBe(200);
    expect(excerpt.json.text).toContain(`run_id=${run.id}`);
    const audit = (await api(`/api/v1/audit?category=startup&limit=50`)).json.items as {
      action: string;
      entity_id: string;
      details: Record<string, unknown>;
    }[];
    const mine = audit.filter((entry) => entry.entity_id === id).map((entry) => entry.action);
    expect(mine).toEqual(expect.arrayContaining(['runs.start', 'runs.stop']));
    expect(JSON.stringify(audit)).not.toMatch(/devtools\/[A-Za-z0-9_-]{43}/);
  });

  it('leaves no browser behind when the service is killed, and records its runs as ended at the next start', async () => {
    const id = await newProfile();
    const run = (await start(id)).json as Run;
    const { dataRoot } = service;
    expect(browsersUnder(dataRoot).length).toBeGreaterThan(0);
    // Every process the service started (workerd under npm start, the browser and its helpers) ends with it.
    const started = processTree(service.process.pid!).slice(1);
    await service.stop('SIGKILL');
    await until('the browser to exit', async () => (isAlive(run.pid!) ? null : true));
    await until('every process the service started to exit', async () => (started.some(isAlive) ? null : true));
    expect(browsersUnder(dataRoot)).toEqual([]);
    service = await startService(runtime, dataRoot, { LPA_BROWSER: (browser as { path: string }).path });
    const latest = await until('the run to be recorded as ended', async () => {
      const seen = (await api(`/api/v1/profiles/${id}/run`)).json as Run;
      return seen.state === 'crashed' ? seen : null;
    });
    expect(latest).toMatchObject({ id: run.id, end_reason: 'service_stopped' });
    expect((await start(id)).status).toBe(200);
  });
});
