import { z } from 'zod';
import { ApiError } from '../shared/errors/api-error';
import { REDACTED } from '../shared/logs/sanitize';
import { ProxyCheck, ProxyErrorCode, ProxyUpstream } from '../shared/schemas/proxy';
import { BrowserSettings } from '../shared/schemas/browser-settings';
import { RunEndReason, RunState } from '../shared/schemas/run';

/**
 * What the host port says of browsers and the runs it holds (src/host/node/browsers): the store
 * keeps each run's record and its audit; the host owns the processes, their DevTools pipes and the
 * endpoint secrets, which never reach the store.
 */

/** Where a run's endpoint is served, on `authority` (LPA's own `127.0.0.1:<port>`, or the Host a client used). */
export const devtoolsBase = (authority: string, secret: string) => `${authority}/devtools/${secret}`;

/** A `/devtools/…` path that is no live run's endpoint. The secret is not said back: an answer may end up in a client's own logs. */
export const devtoolsNotFound = (method: string) =>
  new ApiError('route.not_found', { method, path: `/devtools/${REDACTED}` });

/** The browser a start would use, or why there is none. */
export const BrowserFound = z.discriminatedUnion('found', [
  z.object({ found: z.literal(true), path: z.string(), version: z.string(), product: z.string() }),
  z.object({ found: z.literal(false), problem: z.string() }),
]);
export type BrowserFound = z.output<typeof BrowserFound>;

/** A start as the store asks the host for it: the profile's browser settings with the start's own in their place. */
export const RunLaunch = z.object({
  run_id: z.string(),
  profile_id: z.string(),
  browser: BrowserSettings,
  timeout_ms: z.int().min(1),
  debug_port: z.boolean(),
  /** The profile's proxy, its password opened by the store for this start only; null for none. */
  proxy: ProxyUpstream.nullable(),
});
export type RunLaunch = z.output<typeof RunLaunch>;

/** A run whose browser answers DevTools: `secret` is its endpoint's path secret, known to the host and to whoever it is handed to. */
export const LiveRun = z.object({
  run_id: z.string(),
  profile_id: z.string(),
  pid: z.int(),
  browser_version: z.string(),
  secret: z.string(),
  debug_port: z.int().nullable(),
});
export type LiveRun = z.output<typeof LiveRun>;

/**
 * How a start ended: running, or why not (`browser_missing`: no browser to start; `failed`: it did not
 * answer DevTools in time, or exited; a proxy's code: its proxy refused the credentials or could not
 * be reached, and no browser was started).
 */
export const RunStartResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), run: LiveRun }),
  z.object({
    ok: z.literal(false),
    reason: z.union([z.enum(['browser_missing', 'failed']), ProxyErrorCode.exclude(['proxy.check_failed'])]),
    error: z.string(),
  }),
]);

/** A check through a profile's proxy (`POST /api/v1/profiles/{id}/proxy/check`), with what went wrong, for a start it refuses. */
export const ProxyCheckResult = ProxyCheck.extend({ error: z.string().nullable() });
export type ProxyCheckResult = z.output<typeof ProxyCheckResult>;
export type RunStartResult = z.output<typeof RunStartResult>;

/**
 * A run whose browser is gone: `stopped` when LPA (or a DevTools client's `Browser.close`) closed
 * it, `crashed` when it exited on its own; `error` holds the last lines of its output for a crash.
 */
export const RunEnd = z.object({
  run_id: z.string(),
  state: RunState.extract(['stopped', 'crashed']),
  // `failed` is the store's own: a start that never answered DevTools is no end the host reports.
  end_reason: RunEndReason.exclude(['failed']),
  exit_code: z.int().nullable(),
  error: z.string().nullable(),
  ended_at: z.int(),
});
export type RunEnd = z.output<typeof RunEnd>;

/** The host's runs: those alive, those still starting (by id), and those that ended (kept a day, for the store to record). */
export const HostRuns = z.object({ live: z.array(LiveRun), starting: z.array(z.string()), ended: z.array(RunEnd) });
export type HostRuns = z.output<typeof HostRuns>;

/** How one step of a flow on a run's page went: an extract's text or a screenshot's PNG (base64), else null; or why it failed. */
export const PageStepResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.string().nullable() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type PageStepResult = z.output<typeof PageStepResult>;
