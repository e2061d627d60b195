import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Duplex, Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import type { WebSocketServer } from 'ws';
import type { LogRecord } from '../../../shared/logs/line';
import {
  devtoolsBase,
  devtoolsNotFound,
  type BrowserFound,
  type HostRuns,
  type LiveRun,
  type PageStepResult,
  type ProxyCheckResult,
  type RunEnd,
  type RunLaunch,
  type RunStartResult,
} from '../../runs-schema';
import { killBrowser, spawnBrowser, weighSession } from './browser-process';
import { DevtoolsPipe } from './devtools-pipe';
import { type ClientEvents, type ClientSocket, DevtoolsRelay, type RelayTarget } from './devtools-relay';
import { findBrowser } from './find-browser';
import { PageSteps } from './page-steps';
import type { PageStep } from '../../../shared/schemas/flow-steps';
import { LocalProxy } from './profile-proxy';
import type { ShortLaunch } from '../../cookies-schema';
import type { ProxyUpstream } from '../../../shared/schemas/proxy';
import { BROWSER_DEFAULTS } from '../../../shared/schemas/browser-settings';
import { HostRefusal } from '../../port';
import { loadWhenUsed } from '../load-when-used';
import { Synchronizer } from '../synchronizer/synchronizer';

/** How long a clean stop waits for the browser to close itself before it is killed. */
const CLOSE_WAIT_MS = 10_000;
/** How long a live browser has to answer DevTools when asked whether it still does. */
const ANSWER_WAIT_MS = 5_000;
/** The output lines of a run kept in memory, for the `error` of a crash. */
const TAIL_LINES = 20;
/** Ended runs the host remembers for the store (a day, and at most this many). */
const ENDED_KEPT = 1_000;
const ENDED_FOR_MS = 24 * 60 * 60 * 1000;

/** The path of a run's endpoint: `/devtools/<secret>` and after it `browser`, `page/<target id>` or `json/…`. */
const ENDPOINT_PATH = /^\/devtools\/([A-Za-z0-9_-]{43})(\/.*)?$/;

/** Hands a client's WebSocket, once open, to a run's relay; what the server then tells of it goes to the events. */
export type SocketAccept = (socket: ClientSocket) => ClientEvents;

/**
 * How an in-process runtime's server (Bun's, Deno's) takes a WebSocket: it answers the upgrade and,
 * once the socket is open, hands it to `accept`. Null when the request is no valid WebSocket handshake.
 */
export type UpgradeWebSocket = (request: Request, accept: SocketAccept) => Response | null;

/** A profile id as a folder name: refused otherwise, so that no path leaves `<data root>/browsers`. */
function assertProfileId(profileId: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(profileId)) throw new HostRefusal(`not a profile id: ${profileId.slice(0, 64)}`);
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface BrowserRunsOptions {
  dataRoot: string;
  /** `LPA_BROWSER`: a path or a name on PATH; unset, the usual ones are looked for. */
  browser: string | undefined;
  /** `LPA_BROWSER_NICE`: the nice of each browser's session while it starts, 0..19 (./browser-process.ts). */
  browserNice: number;
  /** Where a run's output goes: the `kernel` stream of its profile. */
  kernel: (profileId: string, records: LogRecord[]) => void;
}

/** How long a start waits for its proxy to answer the probe of its credentials. */
const PROXY_PROBE_MS = 10_000;

/**
 * The switches that keep a browser behind its local proxy (docs/proxies.md): every request through
 * it, loopback included (Chromium sends loopback around a proxy unless told `<-loopback>`); no DNS of
 * its own (the proxy resolves names: the resolver rule Chromium's own SOCKS guide gives, so a DNS
 * prefetch resolves nothing), no DNS-over-HTTPS (`disabledFeatures`); WebRTC only over the proxy,
 * which carries no UDP, so no candidate outside it.
 */
function proxyFlags(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    // A rule maps IP literals too: the local proxy's own address is left alone.
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

const DISABLE_FEATURES = '--disable-features=';

/**
 * The one `--disable-features` of a run: LPA's own, then the start's. Chromium keeps only the last
 * `--disable-features` it is given, so the start's are merged into LPA's, never left to replace them.
 * - Behind a proxy, no DNS-over-HTTPS: its lookups would leave around the proxy (docs/proxies.md).
 * - Headless, no omnibox popup page: Chromium preloads it at start, a renderer that took half of a
 *   start's CPU (0.6 of 1.3 s of CPU, docs/runs.md#cpu) for an address bar a headless browser does
 *   not have. A browser with a window keeps it, as any Chromium does.
 */
function disabledFeatures(browser: RunLaunch['browser'], proxied: boolean): { flags: string[]; args: string[] } {
  const own = [
    ...(proxied ? ['DnsOverHttps'] : []),
    ...(browser.headless ? ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] : []),
  ];
  const asked = browser.args
    .filter((arg) => arg.startsWith(DISABLE_FEATURES))
    .flatMap((arg) => arg.slice(DISABLE_FEATURES.length).split(','));
  const features = [...new Set([...own, ...asked.filter(Boolean)])];
  return {
    flags: features.length === 0 ? [] : [`${DISABLE_FEATURES}${features.join(',')}`],
    args: browser.args.filter((arg) => !arg.startsWith(DISABLE_FEATURES)),
  };
}

/**
 * The command line of a run's browser on `folder`: DevTools over the pipe (and a port, when the start
 * asks for one), its local proxy's switches when it has one, then the browser settings of the start
 * (docs/runs.md#browser-settings). Exported for `npm run bench -- --runs`, whose reference launches
 * the same browser with the same switches.
 * `window: false` (a short browser, whose work is all over DevTools) opens no window and no page:
 * such a start takes half the CPU of one that opens `about:blank` (docs/cookies.md).
 */
export function browserFlags(
  folder: string,
  launch: Pick<RunLaunch, 'browser' | 'debug_port'>,
  proxyUrl: string | null = null,
  window = true,
) {
  const { browser } = launch;
  const features = disabledFeatures(browser, proxyUrl !== null);
  return [
    '--remote-debugging-pipe',
    `--user-data-dir=${folder}`,
    '--no-first-run',
    '--no-default-browser-check',
    // Cookies and saved logins encrypted with Chromium's own key, not this desktop's keyring: a team
    // profile's folder opens on the next machine (docs/teams.md#what-travels). The folder's protection
    // at rest is the data root's (0700).
    '--password-store=basic',
    ...(browser.headless ? ['--headless=new'] : []),
    // Chromium refuses to run as root with its sandbox on; LPA as root is a container's choice.
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ...(launch.debug_port ? ['--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1'] : []),
    ...(proxyUrl === null ? [] : proxyFlags(proxyUrl)),
    ...features.flags,
    ...(browser.window ? [`--window-size=${browser.window.width},${browser.window.height}`] : []),
    ...(browser.user_agent === null ? [] : [`--user-agent=${browser.user_agent}`]),
    // --lang is the UI's language and the first of navigator.languages; --accept-lang the whole list.
    ...(browser.languages === null
      ? []
      : [`--lang=${browser.languages[0]}`, `--accept-lang=${browser.languages.join(',')}`]),
    ...features.args,
    // The first page only: headless Chromium refuses more than one on its command line, so the start
    // opens the others over DevTools (BrowserRuns.start).
    window ? (browser.start_urls[0] ?? 'about:blank') : '--no-startup-window',
  ];
}

/**
 * The environment of a run's browser: the service's, with the profile's time zone as `TZ`, which
 * every page, worker and service worker of the browser reads (a DevTools override would have to be
 * set on each target as it appears).
 */
export function browserEnvironment(browser: Pick<RunLaunch['browser'], 'timezone'>): NodeJS.ProcessEnv {
  return browser.timezone === null ? process.env : { ...process.env, TZ: browser.timezone };
}

/** One browser process and its DevTools relay. */
class BrowserRun {
  readonly relay = new DevtoolsRelay();
  readonly steps = new PageSteps(this.relay);
  readonly tail: string[] = [];
  stopping: RunEnd['end_reason'] | null = null;
  live: LiveRun | null = null;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly launch: RunLaunch,
    readonly secret: string,
    readonly child: ChildProcess,
    /** The run's local proxy, closed when the browser exits, however it ends. */
    readonly proxy: LocalProxy | null,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }
}

/**
 * The browsers of the data root's profiles, owned by the host (the launcher, or the process under
 * Bun and Deno): each started with DevTools over a pipe and no TCP port (unless a start asks for
 * one), its folder `<data root>/browsers/<profile id>`, its output the profile's `kernel` log, its
 * endpoint served to DevTools clients at `/devtools/<secret>` through the relay. A browser whose
 * parent dies sees its pipe close and exits, so none outlives the service.
 */
export class BrowserRuns {
  private readonly runs = new Map<string, BrowserRun>();
  private readonly bySecret = new Map<string, BrowserRun>();
  private readonly ended = new Map<string, RunEnd>();
  /** The endpoints' WebSocket server, made at the first upgrade (../load-when-used.ts). */
  private sockets: WebSocketServer | null = null;
  private found: Promise<BrowserFound> | null = null;
  /** The synchronizer over these browsers: it speaks to them on LPA's own DevTools sessions. */
  readonly synchronizer = new Synchronizer((runId) => this.relayOf(runId));
  /** Per profile, the start or short browser last queued on its folder (`inLane`). */
  private readonly lanes = new Map<string, Promise<void>>();

  constructor(private readonly options: BrowserRunsOptions) {}

  /** The browser a start uses; looked for once. */
  browser(): Promise<BrowserFound> {
    this.found ??= findBrowser(this.options.browser);
    return this.found;
  }

  /** Starts a run's browser, after any short browser on the profile's folder has closed (`inLane`). */
  start(launch: RunLaunch): Promise<RunStartResult> {
    return this.inLane(launch.profile_id, () => this.launch(launch));
  }

  private async launch(launch: RunLaunch): Promise<RunStartResult> {
    const browser = await this.browser();
    if (!browser.found) return { ok: false, reason: 'browser_missing', error: browser.problem };
    const proxy = launch.proxy ? await LocalProxy.open(launch.proxy) : null;
    // A proxy that refuses the credentials or cannot be reached fails the start before any browser runs.
    const refused = await proxy?.probe(Math.min(PROXY_PROBE_MS, launch.timeout_ms));
    if (refused) {
      await proxy!.close();
      return { ok: false, reason: refused.code as 'proxy.auth_failed' | 'proxy.unreachable', error: refused.error };
    }
    const folder = await this.folderToLaunchIn(launch.profile_id);
    const child = spawnBrowser(browser.path, browserFlags(folder, launch, proxy?.url), {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      env: browserEnvironment(launch.browser),
      nice: this.options.browserNice,
    });
    const secret = randomBytes(32).toString('base64url');
    const run = new BrowserRun(launch, secret, child, proxy);
    this.runs.set(launch.run_id, run);
    this.bySecret.set(hashOf(secret), run);
    const pipe = new DevtoolsPipe(
      child.stdio[3] as Writable,
      child.stdio[4] as Readable,
      (text) => run.relay.receive(text),
      () => run.relay.close(new Error('the browser closed its DevTools pipe')),
    );
    run.relay.connect(pipe);
    this.logOutput(run, child.stdout!, 'info');
    this.logOutput(run, child.stderr!, 'info');
    void run.exited.then((exit) => this.recordEnd(run, exit));
    child.once('error', (error) => run.tail.push(`could not start ${browser.path}: ${error.message}`));

    let timer: NodeJS.Timeout | undefined;
    try {
      const version = await Promise.race([
        run.relay.call<{ product: string }>('Browser.getVersion').then(async (answer) => {
          if (launch.browser.start_urls.length > 1) await this.openStartPages(run);
          return answer;
        }),
        run.exited.then(() => {
          throw new Error('the browser exited before it answered DevTools');
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the browser did not answer DevTools within ${launch.timeout_ms} ms`)),
            launch.timeout_ms,
          );
        }),
      ]);
      const debugPort = launch.debug_port ? await this.debugPortOf(folder, run) : null;
      // Started: from now on the browser weighs as any other session, a person's headful one too.
      if (this.options.browserNice !== 0) weighSession(child, 0);
      run.live = {
        run_id: launch.run_id,
        profile_id: launch.profile_id,
        pid: child.pid!,
        browser_version: version.product,
        secret,
        debug_port: debugPort,
      };
      return { ok: true, run: run.live };
    } catch (error) {
      run.stopping = 'killed';
      killBrowser(child);
      await run.exited;
      this.ended.delete(launch.run_id);
      const output = run.tail.slice(-5).join('\n');
      return {
        ok: false,
        reason: 'failed',
        error: `${(error as Error).message}${output ? `\n${output}` : ''}`.slice(0, 2000),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The start pages after the first, each a tab of its own, once the first one is open (its tab may
   * appear after the browser answers DevTools): so a client finds them all when the start answers.
   */
  private async openStartPages(run: BrowserRun): Promise<void> {
    for (;;) {
      const { targetInfos } = await run.relay.call<{ targetInfos: { type: string }[] }>('Target.getTargets');
      if (targetInfos.some((target) => target.type === 'page')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const url of run.launch.browser.start_urls.slice(1)) await run.relay.call('Target.createTarget', { url });
  }

  /** Closes a run's browser (asked to close, so its profile is flushed; killed after a bound, or at once with `force`). */
  async stop(runId: string, force: boolean): Promise<RunEnd | null> {
    const run = this.runs.get(runId);
    if (!run) return this.ended.get(runId) ?? null;
    this.synchronizer.ending(runId);
    run.stopping ??= force ? 'killed' : 'stopped';
    if (!force) {
      run.relay.call('Browser.close').catch(() => {});
      const closed = await Promise.race([
        run.exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), CLOSE_WAIT_MS).unref()),
      ]);
      if (!closed) run.stopping = 'killed';
    }
    killBrowser(run.child);
    await run.exited;
    // recordEnd runs on the same exit, before this continuation.
    return this.ended.get(runId) ?? null;
  }

  /** Every run still alive, closed cleanly in parallel: the service is stopping. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((runId) => this.stop(runId, false)));
  }

  runsNow(): HostRuns {
    const now = Date.now();
    for (const [runId, end] of this.ended) if (now - end.ended_at > ENDED_FOR_MS) this.ended.delete(runId);
    return {
      live: [...this.runs.values()].flatMap((run) => (run.live && run.stopping === null ? [run.live] : [])),
      starting: [...this.runs.values()].flatMap((run) => (run.live === null ? [run.launch.run_id] : [])),
      ended: [...this.ended.values()],
    };
  }

  /** Fetches `url` through a profile's proxy as its browser would: through a local proxy of its own, closed after. */
  async checkProxy(upstream: ProxyUpstream, url: string, timeoutMs: number): Promise<ProxyCheckResult> {
    const proxy = await LocalProxy.open(upstream);
    try {
      return await proxy.check(url, timeoutMs);
    } finally {
      await proxy.close();
    }
  }

  /** The DevTools relay of a live run (for the synchronizer, which speaks to its browser on LPA's own sessions); null for any other. */
  relayOf(runId: string): DevtoolsRelay | null {
    const run = this.runs.get(runId);
    return run?.live && run.stopping === null ? run.relay : null;
  }

  /** Whether the run's browser lives and answers DevTools within `ANSWER_WAIT_MS`: a hung browser holds no lease. */
  async answers(runId: string): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run?.live || run.stopping !== null) return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        run.relay.call('Browser.getVersion').then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), ANSWER_WAIT_MS);
        }),
      ]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A PNG of the run's first page, base64; null when the run is not alive or has no page. */
  async screenshot(runId: string): Promise<string | null> {
    const run = this.runs.get(runId);
    if (!run?.live) return null;
    const { targetInfos } = await run.relay.call<{ targetInfos: { targetId: string; type: string }[] }>(
      'Target.getTargets',
    );
    const page = targetInfos.find((target) => target.type === 'page');
    if (!page) return null;
    const { sessionId } = await run.relay.call<{ sessionId: string }>('Target.attachToTarget', {
      targetId: page.targetId,
      flatten: true,
    });
    try {
      const { data } = await run.relay.call<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
      return data;
    } finally {
      run.relay.call('Target.detachFromTarget', { sessionId }).catch(() => {});
    }
  }

  /** One step of a flow on the run's current tab (./page-steps.ts). */
  async step(runId: string, step: PageStep): Promise<PageStepResult> {
    const run = this.runs.get(runId);
    if (!run?.live || run.stopping !== null) return { ok: false, error: 'the browser is not running' };
    return run.steps.run(step);
  }

  /** The run an endpoint path names, and what after the secret it asks for; null for any other path. */
  private endpoint(path: string): { run: BrowserRun; rest: string } | null {
    const match = ENDPOINT_PATH.exec(path);
    if (!match) return null;
    const run = this.bySecret.get(hashOf(match[1]!));
    return run?.live && run.stopping === null ? { run, rest: match[2] ?? '' } : null;
  }

  /**
   * `GET /devtools/<secret>/json/version` and `/json/list`, as Chromium's own HTTP endpoint answers
   * them, with WebSocket URLs on the address the client used (its Host, which the service's Host
   * guard has passed). Null when the path is not a live run's.
   */
  async answerHttp(request: Request): Promise<Response | null> {
    const url = new URL(request.url);
    const found = this.endpoint(url.pathname);
    if (!found || request.method !== 'GET') return null;
    const base = `ws://${devtoolsBase(request.headers.get('host') ?? url.host, found.run.secret)}`;
    const rest = found.rest.replace(/\/$/, '');
    if (rest === '/json/version') {
      const version = await found.run.relay.call<Record<string, string>>('Browser.getVersion');
      return Response.json({
        Browser: version.product,
        'Protocol-Version': version.protocolVersion,
        'User-Agent': version.userAgent,
        'V8-Version': version.jsVersion,
        webSocketDebuggerUrl: `${base}/browser`,
      });
    }
    if (rest === '/json/list' || rest === '/json') {
      const { targetInfos } = await found.run.relay.call<{
        targetInfos: { targetId: string; type: string; title: string; url: string }[];
      }>('Target.getTargets');
      return Response.json(
        targetInfos
          .filter((target) => target.type === 'page')
          .map((target) => ({
            description: '',
            id: target.targetId,
            title: target.title,
            type: target.type,
            url: target.url,
            webSocketDebuggerUrl: `${base}/page/${target.targetId}`,
          })),
      );
    }
    return null;
  }

  /**
   * A request to a run's endpoint on a server that answers with a Response, as Bun's and Deno's do in
   * process (the front has passed it its Host and Origin guards): the `json/…` answers, or a WebSocket
   * that `upgrade` makes on the runtime's own server and the relay takes.
   */
  async serve(request: Request, upgrade: UpgradeWebSocket): Promise<Response> {
    if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') {
      const accept = this.socketAt(new URL(request.url).pathname);
      // No valid handshake: 400, as the launcher's `ws` answers one.
      if (accept) return upgrade(request, accept) ?? new Response(null, { status: 400 });
    } else {
      const answer = await this.answerHttp(request);
      if (answer) return answer;
    }
    throw devtoolsNotFound(request.method);
  }

  /** Whether `path` is the WebSocket of a live run: what the launcher's front door hands the relay at once. */
  relays(path: string): boolean {
    return this.socketAt(path) !== null;
  }

  /** A WebSocket upgrade of the launcher's host server (Node's): a live run's endpoint is relayed, anything else refused. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const accept = this.socketAt(new URL(request.url ?? '/', 'http://host').pathname);
    if (!accept) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.sockets ??= new (loadWhenUsed('ws') as typeof import('ws')).WebSocketServer({ noServer: true });
    this.sockets.handleUpgrade(request, socket, head, (client) => {
      const events = accept(client);
      client.on('message', (data) => events.message(String(data)));
      client.once('close', () => events.closed());
    });
  }

  /** The relay of the live run whose WebSocket `path` is (`…/browser`, `…/page/<target id>`); null for any other path. */
  private socketAt(path: string): SocketAccept | null {
    const found = this.endpoint(path);
    const target: RelayTarget | null = !found
      ? null
      : found.rest === '/browser'
        ? { browser: true }
        : /^\/page\/[A-Za-z0-9]{1,64}$/.test(found.rest)
          ? { targetId: found.rest.slice('/page/'.length) }
          : null;
    return found && target ? (socket) => found.run.relay.attach(socket, target) : null;
  }

  /**
   * Runs `work` on the DevTools session of the profile's browser: its running one, or else a short
   * headless browser on its folder (with the profile's own switches and proxy), closed after it; with
   * `short` null, `not_running` instead. It waits for a start of the profile, and a start waits for it
   * (`inLane`): two browsers on one folder would hand each other the folder, or fail.
   */
  withProfileBrowser<T extends object>(
    profileId: string,
    short: ShortLaunch | null,
    work: (relay: DevtoolsRelay, running: boolean) => Promise<T>,
  ): Promise<
    | ({ ok: true; running: boolean } & T)
    | { ok: false; reason: 'browser_missing' | 'failed' | 'not_running'; error: string }
  > {
    assertProfileId(profileId);
    return this.inLane(profileId, async () => {
      const live = [...this.runs.values()].find(
        (run) => run.launch.profile_id === profileId && run.live !== null && run.stopping === null,
      );
      try {
        if (live) return { ok: true as const, running: true, ...(await work(live.relay, true)) };
        if (short === null)
          return { ok: false as const, reason: 'not_running' as const, error: 'the profile has no running browser' };
        const browser = await this.browser();
        if (!browser.found) return { ok: false as const, reason: 'browser_missing' as const, error: browser.problem };
        return {
          ok: true as const,
          running: false,
          ...(await this.shortSession(browser.path, profileId, short, work)),
        };
      } catch (error) {
        return { ok: false as const, reason: 'failed' as const, error: (error as Error).message.slice(0, 2000) };
      }
    });
  }

  /** A headless browser on the profile's folder for `work` alone: started, used, closed (so it writes its data), and awaited. */
  private async shortSession<T>(
    path: string,
    profileId: string,
    short: ShortLaunch,
    work: (relay: DevtoolsRelay, running: boolean) => Promise<T>,
  ): Promise<T> {
    const folder = await this.folderToLaunchIn(profileId);
    const settings = { ...BROWSER_DEFAULTS, headless: true, args: short.args };
    // The session opens no site, so the proxy is not probed: a proxy that refuses leaves it without a network.
    const proxy = short.proxy ? await LocalProxy.open(short.proxy) : null;
    // Nice 0: this browser is the work of a request that waits for it, not a start beside the API's work.
    const child = spawnBrowser(
      path,
      browserFlags(folder, { browser: settings, debug_port: false }, proxy?.url, false),
      {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
        nice: 0,
      },
    );
    child.once('exit', () => {
      proxy
        ?.close()
        .catch((error: Error) => console.error("a short browser's local proxy did not close:", error.message));
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const tail: string[] = [];
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => tail.push(...chunk.split('\n').filter(Boolean)));
    child.once('error', (error) => tail.push(`could not start ${path}: ${error.message}`));
    const relay = new DevtoolsRelay();
    relay.connect(
      new DevtoolsPipe(
        child.stdio[3] as Writable,
        child.stdio[4] as Readable,
        (text) => relay.receive(text),
        () => relay.close(new Error('the browser closed its DevTools pipe')),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        relay.call('Browser.getVersion'),
        exited.then(() => {
          throw new Error(`the browser exited before it answered DevTools\n${tail.slice(-5).join('\n')}`);
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the browser did not answer DevTools within 30 s')), 30_000);
        }),
      ]);
      return await work(relay, false);
    } finally {
      clearTimeout(timer);
      relay.call('Browser.close').catch(() => {});
      const closed = await Promise.race([
        exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), CLOSE_WAIT_MS).unref()),
      ]);
      if (!closed) killBrowser(child);
      await exited;
    }
  }

  /** Runs `work` after whatever the profile's lane holds (a start, a short browser), and holds the lane until it ends. */
  private inLane<T>(profileId: string, work: () => Promise<T>): Promise<T> {
    const mine = (this.lanes.get(profileId) ?? Promise.resolve()).then(work);
    const done = mine.then(
      () => {},
      () => {},
    );
    this.lanes.set(profileId, done);
    void done.then(() => {
      if (this.lanes.get(profileId) === done) this.lanes.delete(profileId);
    });
    return mine;
  }

  /** Removes a deleted profile's browser folder; refused while one of its runs is alive, or a short browser uses it. */
  async forget(profileId: string): Promise<void> {
    assertProfileId(profileId);
    if (this.hasRun(profileId) || this.lanes.has(profileId)) throw new HostRefusal('the profile has a live browser');
    // Without blocking: a folder a person browsed with holds thousands of files (239 after one start
    // took 15 ms). A killed browser's helpers may still hold a file open for a moment after its main process exits.
    await rm(this.folderOf(profileId), { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    await rm(`${this.folderOf(profileId)}.bundle`, { force: true });
  }

  /**
   * Runs `work` on the profile's folder while no browser uses it: after whatever its lane holds, and
   * refused while a run of it is alive (a team profile's folder is packed or unpacked so).
   */
  withFolder<T>(profileId: string, work: (folder: string) => Promise<T>): Promise<T> {
    assertProfileId(profileId);
    return this.inLane(profileId, async () => {
      if (this.hasRun(profileId)) throw new HostRefusal('the profile has a live browser');
      mkdirSync(join(this.options.dataRoot, 'browsers'), { recursive: true, mode: 0o700 });
      return work(this.folderOf(profileId));
    });
  }

  private hasRun(profileId: string): boolean {
    return [...this.runs.values()].some((run) => run.launch.profile_id === profileId);
  }

  private folderOf(profileId: string): string {
    return join(this.options.dataRoot, 'browsers', profileId);
  }

  /**
   * The profile's folder, made if missing, without the DevToolsActivePort its last browser left (a
   * port no longer open must not be read as the next one's). Without blocking: ten starts at once
   * made the host's other requests wait on these.
   */
  private async folderToLaunchIn(profileId: string): Promise<string> {
    const folder = this.folderOf(profileId);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await rm(join(folder, 'DevToolsActivePort'), { force: true });
    return folder;
  }

  /** The port Chromium chose for `--remote-debugging-port=0`, from the file it writes once it listens. */
  private async debugPortOf(folder: string, run: BrowserRun): Promise<number> {
    for (let waited = 0; waited < 10_000; waited += 50) {
      try {
        const port = Number(readFileSync(join(folder, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
        if (Number.isInteger(port) && port > 0) return port;
      } catch {
        // not written yet
      }
      if (run.child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the browser opened no debugging port');
  }

  private logOutput(run: BrowserRun, stream: Readable, level: LogRecord['level']): void {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      const records = lines
        .filter((line) => line.trim() !== '')
        .map((line) => ({
          ts: Date.now(),
          level,
          message: line.slice(0, 4000),
          fields: { run_id: run.launch.run_id },
        }));
      if (records.length === 0) return;
      run.tail.push(...records.map((record) => record.message));
      run.tail.splice(0, Math.max(0, run.tail.length - TAIL_LINES));
      try {
        this.options.kernel(run.launch.profile_id, records);
      } catch (error) {
        console.error('a browser log line could not be written:', (error as Error).message);
      }
    });
  }

  private recordEnd(run: BrowserRun, { code, signal }: { code: number | null; signal: NodeJS.Signals | null }): void {
    const { run_id: runId } = run.launch;
    this.runs.delete(runId);
    this.bySecret.delete(hashOf(run.secret));
    const asked = run.stopping;
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    run.steps.close();
    run.relay.close(new Error(`the browser has exited (${how})`));
    run.proxy?.close().catch((error: Error) => console.error("a run's local proxy did not close:", error.message));
    const end: RunEnd = asked
      ? { run_id: runId, state: 'stopped', end_reason: asked, exit_code: code, error: null, ended_at: Date.now() }
      : code === 0
        ? {
            run_id: runId,
            state: 'stopped',
            end_reason: 'browser_closed',
            exit_code: 0,
            error: null,
            ended_at: Date.now(),
          }
        : {
            run_id: runId,
            state: 'crashed',
            end_reason: 'exited',
            exit_code: code,
            error: [`the browser exited on its own (${how})`, ...run.tail.slice(-10)].join('\n').slice(0, 4000),
            ended_at: Date.now(),
          };
    this.ended.set(runId, end);
    while (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value!);
  }
}
