import { mkdirSync } from 'node:fs';
import { HostRefusal, type HostPort } from '../port';
import { nodeDisk } from './disk';
import { nodeFiles } from './files';
import { nodeKeys } from './keys';
import { nodeLogs } from './logs';
import { nodeSeals } from './seals';
import { nodeTeam, type TeamLink } from './team-link';
import { DEFAULT_BROWSER_NICE } from './browsers/browser-process';
import { BrowserRuns, type BrowserRunsOptions } from './browsers/browser-runs';
import { readJar, writeJar } from './browsers/devtools-cookies';
import { appendKernelLines } from './logs';
import { packBundle, unpackBundle } from './browsers/profile-bundle';

/** A team's bucket is the team service's: a machine keeps no profile's browser data for others. */
const refuse = async (): Promise<never> => {
  throw new HostRefusal("a machine keeps no team's bundles");
};

/** The browsers of a data root's profiles, as the launch settings say. One per process: it owns their processes. */
export function browserRuns(settings: Omit<BrowserRunsOptions, 'kernel'>): BrowserRuns {
  return new BrowserRuns({
    ...settings,
    kernel: (profileId, records) => appendKernelLines(settings.dataRoot, profileId, records),
  });
}

/**
 * The machine side of the host port: plain functions over the data root, one module per concern.
 * Bun and Deno call it directly; for workerd the launcher serves it (server.ts) on a unix socket,
 * and the tests hand the same server to Miniflare as a service binding, so they exercise this code.
 */
export function nodeHost(
  dataRoot: string,
  team: TeamLink | null = null,
  browsers = browserRuns({ dataRoot, browser: undefined, browserNice: DEFAULT_BROWSER_NICE }),
): HostPort {
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  const teamLink = nodeTeam(team);
  return {
    runs: {
      browser: () => browsers.browser(),
      start: (launch) => browsers.start(launch),
      stop: (runId, force) => browsers.stop(runId, force),
      list: async () => browsers.runsNow(),
      screenshot: (runId) => browsers.screenshot(runId),
      step: (runId, step) => browsers.step(runId, step),
      checkProxy: (proxy, url, timeoutMs) => browsers.checkProxy(proxy, url, timeoutMs),
      answers: (runId) => browsers.answers(runId),
      forget: (profileId) => browsers.forget(profileId),
      pack: (profileId, send) =>
        browsers.withFolder(profileId, (folder) => packBundle(folder, profileId, send, teamLink.forward)),
      unpack: (profileId, fetch) =>
        browsers.withFolder(profileId, (folder) => unpackBundle(folder, profileId, fetch, teamLink.forward)),
    },
    bundles: {
      put: refuse,
      get: refuse,
      remove: refuse,
    },
    synchronizer: {
      start: (launch) => browsers.synchronizer.start(launch),
      stop: async () => browsers.synchronizer.stop(),
      remove: async (profileId) => browsers.synchronizer.remove(profileId),
      status: async () => browsers.synchronizer.status(),
    },
    cookies: {
      read: (profileId, short) => browsers.withProfileBrowser(profileId, short, readJar),
      write: (profileId, short, cookies, mode) =>
        browsers.withProfileBrowser(profileId, short, (relay, running) => writeJar(relay, running, cookies, mode)),
    },
    disk: nodeDisk(dataRoot),
    keys: nodeKeys(dataRoot),
    files: nodeFiles(dataRoot),
    logs: nodeLogs(dataRoot),
    seals: nodeSeals(dataRoot),
    team: teamLink,
  };
}
