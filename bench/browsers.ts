/**
 * What the sections of `npm run bench -- --runs` share (./runs.ts, ./synchronizer.ts, ./flow-runs.ts):
 * profiles' browsers through LPA, the same browser launched directly with LPA's switches, the
 * service, and where figures go.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import puppeteer, { type Browser, type ConnectOptions } from 'puppeteer-core';
import { browserFlags } from '../src/host/node/browsers/browser-runs';
import { BROWSER_DEFAULTS } from '../src/shared/schemas/browser-settings';
import type { Run } from '../src/shared/schemas/run';
import type { RunningService } from '../test/node/service';
import { ok } from './api';
import type { Row } from './report';

/** How long a browser has to listen, or to exit once asked to close, before the bench gives up on it. */
const BROWSER_WAIT_MS = 30_000;

export const log = (message: string) => console.error(`[bench --runs] ${message}`);
export const ms = (v: number, digits = 1) => `${v.toFixed(digits)} ms`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
export const times = (v: number) => `${v.toFixed(2)}×`;
export const wait = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Puppeteer as a client of either endpoint connects: the page left as the browser made it (no viewport set). */
export const connect = (endpoint: Pick<ConnectOptions, 'browserWSEndpoint' | 'browserURL'>) =>
  puppeteer.connect({ ...endpoint, defaultViewport: null });

/** Browsers the bench started itself, killed at the end if any is still alive. */
export const launched = new Set<ChildProcess>();

/** The switches LPA starts a headless profile's browser with, on a folder of the bench's: DevTools over the pipe. */
export const lpaSwitches = (folder: string, proxyUrl: string | null = null) =>
  browserFlags(folder, { browser: { ...BROWSER_DEFAULTS, headless: true }, debug_port: false }, proxyUrl);

/**
 * The reference: the browser LPA would start, on a folder of the bench's, with LPA's own switches
 * except that DevTools listens on a TCP port of its choosing instead of the pipe. Resolves with the
 * endpoint Chromium prints once it listens (as `puppeteer.launch` reads it).
 */
export async function launchDirect(
  path: string,
  folder: string,
  proxyUrl: string | null = null,
): Promise<{ child: ChildProcess; endpoint: string }> {
  const flags = lpaSwitches(folder, proxyUrl).map((flag) =>
    flag === '--remote-debugging-pipe' ? '--remote-debugging-port=0' : flag,
  );
  const child = spawn(path, flags, { stdio: ['ignore', 'ignore', 'pipe'] });
  launched.add(child);
  child.once('exit', () => launched.delete(child));
  let output = '';
  let listening = false;
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the browser did not listen within ${BROWSER_WAIT_MS} ms:\n${output.slice(-2000)}`)),
      BROWSER_WAIT_MS,
    );
    child.stderr!.setEncoding('utf8');
    // Read to the end all the same: a browser whose stderr is not drained blocks on it.
    child.stderr!.on('data', (chunk: string) => {
      if (listening) return;
      output += chunk;
      const found = /^DevTools listening on (ws:\/\/\S+)$/m.exec(output);
      if (!found) return;
      listening = true;
      clearTimeout(timer);
      resolve(found[1]!);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the browser exited (${signal ?? `exit code ${code}`}) before it listened:\n${output.slice(-2000)}`),
      );
    });
  });
  return { child, endpoint };
}

/** Closes a directly launched browser as LPA's stop does: `Browser.close`, so it flushes its folder; killed after a bound. */
export async function closeDirect(browser: Browser, child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await browser.close();
  const timer = setTimeout(() => child.kill('SIGKILL'), BROWSER_WAIT_MS);
  await exited;
  clearTimeout(timer);
}

export async function newProfile(service: RunningService, name: string): Promise<string> {
  return (await ok<{ id: string }>(service, '/api/v1/profiles', { method: 'POST', body: { name } })).id;
}

export const startRun = (service: RunningService, profileId: string, body: Record<string, unknown> = {}) =>
  ok<Run>(service, `/api/v1/profiles/${profileId}/start`, { method: 'POST', body: { headless: true, ...body } });

export const stopRun = (service: RunningService, profileId: string) =>
  ok(service, `/api/v1/profiles/${profileId}/stop`, { method: 'POST' });

/** What every section works with: the service, its own processes, the browser, and where figures go. */
export interface Bench {
  service: RunningService;
  /** The launcher's Node and workerd, listed before any browser was their child: the browsers' memory is not LPA's. */
  own: number[];
  browser: string;
  root: string;
  row: (section: string, figure: string, value: string, extra?: Partial<Row>) => void;
  notes: string[];
}
