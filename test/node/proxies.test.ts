import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import puppeteer, { type Page } from 'puppeteer-core';
import { createServer as createSocksServer } from '@pondwader/socks5-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/schemas/run';
import { ensureChromium } from './chromium';
import { lpaRunner } from './cli-run';
import { RUNTIMES, type RunningService, startService } from './service';
import { laterApiClient } from './api-client';
import { browsersUnder } from './process-tree';
import { httpProxy } from './http-proxy';

const browser = ensureChromium();

const USER = 'lpa-user';
const PASSWORD = 'lpa-proxy-pw:@/%';
/** A name no resolver knows: only the test's proxies map it to the site, so a page that loads it came through one. */
const SITE_NAME = 'site.lpa-proxy.test';
/** The address each proxy connects to the site from; the browser itself would come from 127.0.0.1. */
const FROM = { http: '127.0.0.2', socks5: '127.0.0.3', https: '127.0.0.4' } as const;
type Kind = keyof typeof FROM;

interface Visit {
  path: string;
  from: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A site on loopback that records where each request came from. */
async function recordingSite(): Promise<{ server: Server; port: number; visits: Visit[] }> {
  const visits: Visit[] = [];
  const server = createServer((req, res) => {
    visits.push({ path: req.url ?? '', from: req.socket.remoteAddress ?? '', headers: req.headers });
    // `/sw-<kind>.js`: a service worker that fetches `/sw-fetch-<kind>` as it installs.
    const worker = /^\/sw-(\w+)\.js$/.exec(req.url ?? '');
    res.setHeader('content-type', worker ? 'text/javascript' : 'text/html');
    res.end(
      worker
        ? `self.addEventListener('install', (event) => event.waitUntil(fetch('/sw-fetch-${worker[1]}')));`
        : `<!doctype html><title>${req.url}</title><p>through a proxy</p>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, visits };
}

const toSite = (hostname: string) => (hostname === SITE_NAME ? '127.0.0.1' : hostname);

/**
 * A certificate for 127.0.0.1 and its key, made for the run, for the TLS proxy: the service is
 * started trusting it (NODE_EXTRA_CA_CERTS, and DENO_CERT for Deno), as a machine trusts a real proxy's.
 */
function loopbackCertificate(): { key: string; cert: string; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'lpa-proxy-tls-'));
  const [key, path] = [join(folder, 'key.pem'), join(folder, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', path],
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(path, 'utf8'), path };
}

/**
 * An authenticated HTTP proxy, or an HTTPS one (TLS to the proxy) with `tls`, which resolves the
 * site's name and connects from FROM.http (FROM.https).
 */
const siteProxy = (tls?: { key: string; cert: string }) =>
  httpProxy({
    username: USER,
    password: PASSWORD,
    tls,
    connect: {
      localAddress: tls ? FROM.https : FROM.http,
      dnsLookup: ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        options.all
          ? callback(null, [{ address: toSite(host), family: 4 }])
          : callback(null, toSite(host), 4)) as never,
    },
  });

/**
 * An authenticated SOCKS5 proxy (@pondwader/socks5-server), which resolves the site's name and connects
 * from FROM.socks5: its own connection handler, as the package's default one but for the address.
 */
async function socksProxy(): Promise<{ server: net.Server; port: number; carried: string[] }> {
  const carried: string[] = [];
  const socks = createSocksServer({ auth: { username: USER, password: PASSWORD } });
  socks.setConnectionHandler((connection, sendStatus) => {
    carried.push(`${connection.destAddress}:${connection.destPort}`);
    const stream = net.connect({
      host: toSite(connection.destAddress),
      port: connection.destPort,
      localAddress: FROM.socks5,
    });
    stream.once('error', () => sendStatus('HOST_UNREACHABLE'));
    stream.once('connect', () => {
      sendStatus('REQUEST_GRANTED');
      connection.socket.pipe(stream).pipe(connection.socket);
    });
    connection.socket.on('error', () => stream.destroy());
    connection.socket.on('close', () => stream.destroy());
  });
  const server = (socks as unknown as { server: net.Server }).server;
  await new Promise<void>((resolve) => socks.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, carried };
}

/** Whether something listens on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function until(probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Gathers ICE candidates in the page with no STUN server: host candidates are all a page could find. */
const WEBRTC_PROBE = async () => {
  const connection = new RTCPeerConnection({ iceServers: [] });
  const found: string[] = [];
  connection.createDataChannel('probe');
  const done = new Promise<void>((resolve) => {
    connection.onicecandidate = (event) => (event.candidate ? found.push(event.candidate.candidate) : resolve());
    setTimeout(resolve, 5_000);
  });
  await connection.setLocalDescription(await connection.createOffer());
  await done;
  const sdp = connection.localDescription?.sdp ?? '';
  connection.close();
  return { found, inSdp: sdp.split('\n').filter((line) => line.startsWith('a=candidate')) };
};

describe.skipIf('skip' in browser).each(RUNTIMES)("a profile's proxy on %s", { timeout: 180_000 }, (runtime) => {
  let service: RunningService;
  let site: Awaited<ReturnType<typeof recordingSite>>;
  let proxies: Record<Kind, { port: number; carried: string[]; close: () => Promise<unknown> }>;
  const api = laterApiClient(() => service);
  const profileWith = async (kind: Kind, override: Record<string, unknown> = {}) => {
    const proxy = { type: kind, host: '127.0.0.1', port: proxies[kind].port, username: USER, password: PASSWORD };
    const res = await api('/api/v1/profiles', {
      method: 'POST',
      body: { name: `proxy-${crypto.randomUUID().slice(0, 8)}`, proxy: { ...proxy, ...override } },
    });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };
  const start = (id: string, body: Record<string, unknown> = {}) =>
    api(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true, ...body } });
  const siteUrl = (path: string) => `http://${SITE_NAME}:${site.port}${path}`;
  /** The command lines of the profile's running browsers. */
  const browsersOf = (id: string) =>
    browsersUnder(join(service.dataRoot, 'browsers', id)).map((browser) => browser.command);

  beforeAll(async () => {
    site = await recordingSite();
    const certificate = loopbackCertificate();
    const [http, socks5, https] = await Promise.all([siteProxy(), socksProxy(), siteProxy(certificate)]);
    proxies = {
      http: { ...http, close: () => http.server.close(true) },
      https: { ...https, close: () => https.server.close(true) },
      socks5: {
        ...socks5,
        close: () => new Promise((resolve) => socks5.server.close(resolve)),
      },
    };
    service = await startService(runtime, undefined, {
      LPA_BROWSER: (browser as { path: string }).path,
      NODE_EXTRA_CA_CERTS: certificate.path,
      DENO_CERT: certificate.path,
    });
  });
  afterAll(async () => {
    await service?.stop('SIGTERM');
    site?.server.close();
    await Promise.all(Object.values(proxies ?? {}).map((proxy) => proxy.close()));
  });

  it.each(['http', 'socks5', 'https'] as const)(
    'a %s proxy carries every request of a tab, a popup, a worker and a service worker, names unresolved, and WebRTC finds no address',
    async (kind) => {
      const id = await profileWith(kind);
      const started = await start(id, { url: siteUrl(`/first-${kind}`) });
      expect(started.status, started.text).toBe(200);
      const run = started.json as Run;
      const [line] = browsersOf(id);
      const localPort = Number(/--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(line ?? '')?.[1]);
      expect(localPort).toBeGreaterThan(0);
      expect(line).not.toContain(PASSWORD);
      expect(line).toContain('--proxy-bypass-list=<-loopback>');

      const client = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint! });
      try {
        const tab = await client.newPage();
        await tab.goto(siteUrl(`/tab-${kind}`));
        expect(await tab.title()).toBe(`/tab-${kind}`);
        const popupOpened = new Promise<Page | null>((resolve) => tab.once('popup', resolve));
        await tab.evaluate((url) => void window.open(url), siteUrl(`/popup-${kind}`));
        const popup = (await popupOpened)!;
        await popup.waitForFunction((title) => document.title === title, {}, `/popup-${kind}`);

        // The loopback page itself, which Chromium would reach directly without `<-loopback>`.
        await tab.goto(`http://127.0.0.1:${site.port}/loopback-${kind}`);
        expect(await tab.title()).toBe(`/loopback-${kind}`);

        // A worker and a service worker (loopback is a secure context, the made-up name is not).
        await tab.evaluate(async (kind) => {
          const script = `fetch('${location.origin}/worker-${kind}')`;
          new Worker(URL.createObjectURL(new Blob([script], { type: 'text/javascript' })));
          await navigator.serviceWorker.register(`/sw-${kind}.js`);
        }, kind);
        // A service worker installs in its own time: under a loaded CI it took more than 15 s once (Deno).
        await until(
          async () =>
            [`/worker-${kind}`, `/sw-fetch-${kind}`].every((path) => site.visits.some((visit) => visit.path === path)),
          45_000,
        );

        const probe = await tab.evaluate(WEBRTC_PROBE);
        expect(probe).toEqual({ found: [], inSdp: [] });
      } finally {
        await client.disconnect();
      }

      const mine = site.visits.filter((visit) => new RegExp(`-${kind}(\\.js)?$`).test(visit.path));
      expect(mine.map((visit) => visit.path).sort()).toEqual(
        [
          `/first-${kind}`,
          `/loopback-${kind}`,
          `/popup-${kind}`,
          `/tab-${kind}`,
          `/worker-${kind}`,
          `/sw-${kind}.js`,
          `/sw-fetch-${kind}`,
        ].sort(),
      );
      expect(new Set(mine.map((visit) => visit.from))).toEqual(new Set([FROM[kind]]));
      expect(mine.every((visit) => visit.headers['proxy-authorization'] === undefined)).toBe(true);
      expect(proxies[kind].carried).toContain(`${SITE_NAME}:${site.port}`);

      const stopped = await api(`/api/v1/profiles/${id}/stop`, { method: 'POST', body: {} });
      expect(stopped.json.state).toBe('stopped');
      expect(await listening(localPort)).toBe(false);
    },
  );

  it.each(['http', 'socks5'] as const)(
    'a %s proxy that refuses the credentials fails the start with proxy.auth_failed, and nothing runs',
    async (kind) => {
      const id = await profileWith(kind, { password: 'wrong' });
      const res = await start(id);
      expect(res.status, res.text).toBe(502);
      expect(res.json.error).toMatchObject({
        code: 'proxy.auth_failed',
        details: { proxy: `${kind}://127.0.0.1:${proxies[kind].port}` },
      });
      expect(res.text).not.toContain('wrong');
      expect(browsersOf(id)).toEqual([]);
      expect((await api(`/api/v1/profiles/${id}/run`)).json).toMatchObject({ state: 'failed' });
    },
  );

  it('a start still waiting on its proxy stays starting while the runs are brought in step with the host, then fails', async () => {
    // It refuses the profile's credentials, 1.5 s after it was asked: the start waits on it before any browser runs.
    const slow = await httpProxy({ username: USER, password: 'another', answerAfterMs: 1_500 });
    try {
      const id = await profileWith('http', { port: slow.port });
      const answer = start(id);
      // Each read of a run brings the store in step with the host, which has no browser for this start yet.
      await until(async () => (await api(`/api/v1/profiles/${id}/run`)).status === 200, 1_000);
      expect((await api('/api/v1/runs')).status).toBe(200);
      expect((await api(`/api/v1/profiles/${id}/run`)).json).toMatchObject({ state: 'starting' });
      const res = await answer;
      expect(res.status, res.text).toBe(502);
      expect(res.json.error.code).toBe('proxy.auth_failed');
      expect((await api(`/api/v1/profiles/${id}/run`)).json).toMatchObject({ state: 'failed', end_reason: 'failed' });
      const ends = await api(`/api/v1/audit?action=runs.end&entity_id=${id}`);
      expect(ends.status).toBe(200);
      expect(ends.json.items).toEqual([]);
    } finally {
      await slow.server.close(true);
    }
  });

  it("closes the run's local proxy when its browser crashes and when its profile is deleted", async () => {
    const localPortOf = (id: string) =>
      Number(/--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(browsersOf(id)[0] ?? '')?.[1]);
    const crashed = await profileWith('http');
    const run = (await start(crashed)).json as Run;
    const crashedPort = localPortOf(crashed);
    expect(await listening(crashedPort)).toBe(true);
    process.kill(run.pid!, 'SIGKILL');
    await until(async () => (await api(`/api/v1/profiles/${crashed}/run`)).json.state === 'crashed');
    await until(async () => !(await listening(crashedPort)));

    const deleted = await profileWith('socks5');
    expect((await start(deleted)).status).toBe(200);
    const deletedPort = localPortOf(deleted);
    expect((await api(`/api/v1/profiles/${deleted}`, { method: 'DELETE' })).status).toBe(204);
    await until(async () => !(await listening(deletedPort)));
  });

  it("runs a stopped profile's short cookie browser through its proxy too, and closes that proxy after it", async () => {
    const id = await profileWith('http');
    // The short browser lives for the read alone: its command line is caught while the read runs.
    let line: string | undefined;
    let reading = true;
    const watching = (async () => {
      while (reading && line === undefined) {
        line = browsersOf(id)[0];
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const read = await api(`/api/v1/profiles/${id}/cookies?format=json`);
    reading = false;
    await watching;
    expect(read.status, read.text).toBe(200);
    expect(read.json).toMatchObject({ count: 0 });
    const localPort = Number(/--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(line ?? '')?.[1]);
    expect(localPort, line).toBeGreaterThan(0);
    expect(line).not.toContain(PASSWORD);
    await until(async () => !(await listening(localPort)));
  });

  it('the WebRTC probe finds a candidate in a profile without a proxy: its empty answer above means something', async () => {
    const created = await api('/api/v1/profiles', { method: 'POST', body: { name: 'no-proxy-webrtc' } });
    const run = (await start(created.json.id)).json as Run;
    const client = await puppeteer.connect({ browserWSEndpoint: run.ws_endpoint! });
    try {
      const tab = await client.newPage();
      expect((await tab.evaluate(WEBRTC_PROBE)).found.length).toBeGreaterThan(0);
    } finally {
      await client.disconnect();
      await api(`/api/v1/profiles/${created.json.id}/stop`, { method: 'POST', body: { force: true } });
    }
  });

  it('a proxy that cannot be reached fails the start with proxy.unreachable', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const id = await profileWith('http', { port: closed });
    const res = await start(id);
    expect(res.status, res.text).toBe(502);
    expect(res.json.error.code).toBe('proxy.unreachable');
    expect(browsersOf(id)).toEqual([]);
  });

  it('checks a URL through the proxy, audited in the category proxy; check_proxy refuses a start that fails it', async () => {
    const id = await profileWith('socks5');
    const check = (url: string, profile = id) =>
      api(`/api/v1/profiles/${profile}/proxy/check`, { method: 'POST', body: { url } });
    const ok = await check(siteUrl('/check?secret=1'));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ ok: true, status: 200, latency_ms: expect.any(Number), error_code: null });
    expect(site.visits.at(-1)).toMatchObject({ path: '/check?secret=1', from: FROM.socks5 });

    const wrong = await profileWith('http', { password: 'wrong' });
    expect((await check(siteUrl('/check'), wrong)).json).toMatchObject({ ok: false, error_code: 'proxy.auth_failed' });
    const deadSite = await check('http://127.0.0.1:1/');
    expect(deadSite.json).toMatchObject({ ok: false, status: null, error_code: 'proxy.check_failed' });

    const audit = await api('/api/v1/audit?category=proxy&limit=200');
    const checks = audit.json.items.filter(
      (entry: { action: string; entity_id: string }) =>
        entry.action === 'profiles.proxy_check' && entry.entity_id === id,
    );
    expect(checks).toHaveLength(2);
    expect(JSON.stringify(audit.json)).not.toContain('secret=1');
    expect(JSON.stringify(audit.json)).not.toContain(PASSWORD);

    const refused = await start(id, { url: 'http://127.0.0.1:1/', check_proxy: true });
    expect(refused.status, refused.text).toBe(502);
    expect(refused.json.error.code).toBe('proxy.check_failed');
    expect(browsersOf(id)).toEqual([]);

    const noProxy = await api('/api/v1/profiles', { method: 'POST', body: { name: 'no-proxy' } });
    expect((await check(siteUrl('/x'), noProxy.json.id)).json.error.code).toBe('proxy.not_set');

    const lpa = lpaRunner(() => service);
    const viaCli = await lpa(['profiles', 'proxy', 'check', id, '--url', siteUrl('/cli'), '--json']);
    expect(viaCli.code, viaCli.stderr).toBe(0);
    expect(JSON.parse(viaCli.stdout)).toMatchObject({ ok: true, status: 200, error_code: null });
    expect(site.visits.at(-1)).toMatchObject({ path: '/cli', from: FROM.socks5 });
  });

  it('leaves the password in no file of the data root: not in a log, not in the store, not in a browser folder', async () => {
    const files = readdirSync(service.dataRoot, { recursive: true, encoding: 'utf8' })
      .map((file) => join(service.dataRoot, file))
      .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
    expect(files.some((path) => path.includes('kernel-'))).toBe(true);
    const forms = [PASSWORD, encodeURIComponent(PASSWORD)].map((form) => Buffer.from(form));
    const holding = files.filter((path) => {
      const bytes = readFileSync(path);
      return forms.some((form) => bytes.includes(form));
    });
    expect(holding).toEqual([]);
  });
});
