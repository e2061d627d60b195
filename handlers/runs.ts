import type { Contract } from '../src/contracts/define';
import { runs } from '../src/contracts/runs';
import { devtoolsBase, type LiveRun } from '../src/host/runs-schema';
import { ApiError } from '../src/shared/errors/api-error';
import { errorBody, toApiError } from '../src/shared/errors/envelope';
import { type ProxyUpstream, proxyName } from '../src/shared/schemas/proxy';
import { patchBrowserSettings } from '../src/shared/schemas/browser-settings';
import type { Run, RunBatchResults, RunStart } from '../src/shared/schemas/run';
import { perStore } from '../src/shared/store-memory';
import { type AuditContext, SYSTEM_ACTOR } from '../storage/audit/entry';
import type { StoredRun } from '../storage/runs/runs';
import type { RequestContext } from './context';
import { implement } from './implement';
import { runQuota } from './membership/provider';
import {
  fetchBundle,
  handBack,
  keepLease,
  type LeaseContext,
  releaseLease,
  renewEvery,
  takeLease,
  teamProfile,
} from './team-runs';

/** How often the store asks the host about its live runs, while it has any: a crash is recorded within this. */
const WATCH_MS = 2_000;

/** The audit context of an end nobody asked for: the service saw it. */
const SEEN_BY_SERVICE: AuditContext = { actor: SYSTEM_ACTOR, source: 'system', request_id: null, action: 'runs.end' };

/** A run as the API shows it: its endpoints while its browser is alive (the secret is the host's). */
function shown(run: StoredRun, live: LiveRun | undefined, port: number): Run {
  const base = live ? devtoolsBase(`127.0.0.1:${port}`, live.secret) : null;
  return { ...run, ws_endpoint: base && `ws://${base}/browser`, http_endpoint: base && `http://${base}` };
}

/**
 * The runs whose start is under way in this service: recorded `starting` before the host has a
 * browser for them (while it probes the proxy, waits for a short browser on the profile's folder,
 * or before its request reaches it), so the host cannot name them yet.
 */
const startsUnderway = perStore(() => new Set<string>());

/**
 * Brings the store's live runs in step with the host's processes: a run the host saw end is recorded
 * as it ended (audited as `runs.end`); a run the host does not know at all was left by a service that
 * stopped without closing it (`crashed`, `service_stopped`). A run being started is its start's to
 * record, and a run being stopped its stop's. A team profile's run that ended gives its lease back at once.
 */
export async function syncRuns(ctx: LeaseContext): Promise<Map<string, LiveRun>> {
  const [stored, known] = await Promise.all([ctx.store.runs.live(), ctx.host.runs.list()]);
  const live = new Map(known.live.map((run) => [run.run_id, run]));
  const starting = new Set(known.starting);
  const ended = new Map(known.ended.map((end) => [end.run_id, end]));
  const underway = startsUnderway.of(ctx.memory);
  for (const run of stored) {
    if (live.has(run.id) || starting.has(run.id) || underway.has(run.id) || run.state === 'stopping') continue;
    const end = ended.get(run.id);
    await ctx.store.runs.ended(SEEN_BY_SERVICE, run.id, end ?? leftBehind());
    if (inTeam(ctx)) await handBack(ctx, run.profile_id, run.id);
  }
  return live;
}

/** The runs whose browser is alive, once the store is in step with the host. */
export async function liveRuns(ctx: LeaseContext): Promise<StoredRun[]> {
  await syncRuns(ctx);
  return ctx.store.runs.live();
}

/** Whether this machine works in a team: every profile it starts is then the team's, and runs under a lease. */
const inTeam = (ctx: LeaseContext) => ctx.config.teamUrl !== null;

/**
 * The 404 for a profile that does not exist. A joined machine's profiles are the team's, not in its
 * own store: one it has run is known; any other is asked of the team.
 */
async function knownHere(ctx: RequestContext, id: string): Promise<void> {
  if (!inTeam(ctx)) await ctx.store.profiles.get(id);
  else if ((await ctx.store.runs.latest(id)) === null) await teamProfile(ctx, id);
}

/**
 * The leases of the live runs of team profiles, kept: a run whose lease is lost (refused by the team,
 * or not renewed for a whole lease) has its browser stopped, recorded as `stopped` with `lease_lost`.
 */
async function keepLeases(ctx: LeaseContext, live: Map<string, LiveRun>): Promise<void> {
  for (const run of await ctx.store.runs.live()) {
    if (run.state !== 'running' || !live.has(run.id) || (await keepLease(ctx, run.id))) continue;
    await ctx.store.runs.stopping(run.id);
    const end = await ctx.host.runs.stop(run.id, false);
    await ctx.store.runs.ended(SEEN_BY_SERVICE, run.id, {
      ...(end ?? leftBehind()),
      state: 'stopped',
      end_reason: 'lease_lost',
      error: "the team profile's lease was lost: broken by an admin, expired, or not renewed in time",
    });
    await releaseLease(ctx, run.profile_id, run.id);
  }
}

/** The store's watch of its live runs: one timer per store, running while any run is live. */
const watches = perStore(() => ({ timer: null as ReturnType<typeof setTimeout> | null }));

/** Starts the watch if it is not running; it stops itself once no run is live. */
export function watchRuns(started: LeaseContext): void {
  // The watch outlives the request that started it: what it asks the team is no request's.
  const ctx: LeaseContext = {
    host: started.host,
    store: started.store,
    memory: started.memory,
    config: started.config,
  };
  const watch = watches.of(ctx.memory);
  if (watch.timer !== null) return;
  const tick = async () => {
    watch.timer = null;
    try {
      const live = await syncRuns(ctx);
      if (inTeam(ctx)) await keepLeases(ctx, live);
      if ((await ctx.store.runs.live()).length === 0) return;
    } catch (error) {
      console.error('the runs could not be brought in step with the host:', error);
    }
    // A team profile's lease is looked at every third of it, however short the team service sets it.
    watch.timer ??= setTimeout(tick, Math.min(WATCH_MS, renewEvery(ctx)));
  };
  watch.timer = setTimeout(tick, 0);
}

/** How long a check through a profile's proxy waits for the site's answer. */
const PROXY_CHECK_MS = 15_000;

/** The profile's proxy with its password opened, or `proxy.not_set`. */
async function requireProxy(ctx: RequestContext, id: string): Promise<ProxyUpstream> {
  const proxy = await ctx.store.profiles.proxy(id);
  if (!proxy) throw new ApiError('proxy.not_set');
  return proxy;
}

/** `check_proxy` of a start: its `url` (http or https) fetched through the proxy first; the start is refused unless it answered. */
async function checkBeforeStart(ctx: RequestContext, proxy: ProxyUpstream, url: string | undefined): Promise<void> {
  if (!url || !/^https?:/.test(url)) return;
  const check = await ctx.host.runs.checkProxy(proxy, url, PROXY_CHECK_MS);
  if (check.ok) return;
  const name = proxyName(proxy);
  if (check.error_code === 'proxy.auth_failed') throw new ApiError('proxy.auth_failed', { proxy: name });
  if (check.error_code === 'proxy.unreachable')
    throw new ApiError('proxy.unreachable', { proxy: name, error: check.error ?? '' });
  throw new ApiError('proxy.check_failed', { proxy: name, url, status: check.status, error: check.error });
}

/** How many browsers a batch starts or stops at once: a few, so that a batch of 100 does not swamp the machine. */
export const BATCH_AT_ONCE = 3;

/** One profile's start, as the single route, each item of a batch, a flow job (handlers/flow-job.ts) and the synchronizer run it. */
export async function startOne(ctx: RequestContext, audit: AuditContext, id: string, options: RunStart): Promise<Run> {
  // A team profile is the team's (or a 404 there); its proxy comes with its lease, below.
  const profile = inTeam(ctx) ? await teamProfile(ctx, id) : await ctx.store.profiles.get(id);
  const { url, timeout_ms, debug_port: debugPort, check_proxy: checkProxy, ...settings } = options;
  const browser = patchBrowserSettings(profile.browser, {
    ...settings,
    start_urls: url === undefined ? undefined : [url],
  });
  const found = await ctx.host.runs.browser();
  if (!found.found) throw new ApiError('run.browser_missing', { problem: found.problem });
  const checked = async (proxy: ProxyUpstream | null) => {
    if (!checkProxy) return proxy;
    if (proxy === null) throw new ApiError('proxy.not_set');
    await checkBeforeStart(ctx, proxy, url);
    return proxy;
  };
  let proxy = inTeam(ctx) ? null : await checked(await ctx.store.profiles.proxy(id));
  await syncRuns(ctx);
  const runId = crypto.randomUUID();
  if (inTeam(ctx)) {
    // The local refusal first: a run of this machine holds the lease already, under its own run id.
    const active = (await ctx.store.runs.live()).find((run) => run.profile_id === id);
    if (active)
      throw new ApiError('run.active', { run_id: active.id, state: active.state, started_at: active.started_at });
    await takeLease(ctx, id, runId);
    try {
      proxy = await checked(await fetchBundle(ctx, id, runId));
    } catch (error) {
      await releaseLease(ctx, id, runId);
      throw error;
    }
  }
  // From its record as `starting` to its outcome, the run is this start's: no sync may end it meanwhile.
  const underway = startsUnderway.of(ctx.memory);
  underway.add(runId);
  try {
    let begun: StoredRun;
    try {
      begun = await ctx.store.runs.begin(
        { id: runId, profile_id: id, headless: browser.headless, started_at: Date.now() },
        await runQuota(ctx),
      );
    } catch (error) {
      if (inTeam(ctx)) await releaseLease(ctx, id, runId);
      throw error;
    }
    const started = await ctx.host.runs.start({
      run_id: runId,
      profile_id: id,
      browser,
      timeout_ms,
      debug_port: debugPort,
      proxy,
    });
    if (!started.ok) {
      await ctx.store.runs.failed(begun.id, started.error);
      if (inTeam(ctx)) await releaseLease(ctx, id, runId);
      if (started.reason === 'browser_missing') throw new ApiError('run.browser_missing', { problem: started.error });
      if (started.reason === 'proxy.auth_failed') throw new ApiError('proxy.auth_failed', { proxy: proxyName(proxy!) });
      if (started.reason === 'proxy.unreachable')
        throw new ApiError('proxy.unreachable', { proxy: proxyName(proxy!), error: started.error });
      throw new ApiError('run.start_failed', { run_id: begun.id, error: started.error });
    }
    // A start slower than a third of the lease renews it before it answers; one slower than the lease lost it.
    if (inTeam(ctx) && !(await keepLease(ctx, runId))) {
      await ctx.host.runs.stop(runId, true);
      await ctx.store.runs.failed(runId, 'the browser took longer to start than the lease lasts');
      await releaseLease(ctx, id, runId);
      throw new ApiError('run.lease_lost', { profile_id: id, run_id: runId });
    }
    const { pid, browser_version, debug_port } = started.run;
    const running = await ctx.store.runs.running(audit, runId, { pid, browser_version, debug_port });
    watchRuns(ctx);
    return shown(running, started.run, ctx.config.port);
  } finally {
    underway.delete(runId);
  }
}

/** One profile's stop; `run.not_running` when it has no live run. */
export async function stopOne(ctx: RequestContext, audit: AuditContext, id: string, force: boolean): Promise<Run> {
  await knownHere(ctx, id);
  await syncRuns(ctx);
  const run = await ctx.store.runs.latest(id);
  if (!run || (run.state !== 'running' && run.state !== 'stopping')) throw new ApiError('run.not_running');
  await ctx.store.runs.stopping(run.id);
  const end = await ctx.host.runs.stop(run.id, force);
  const stopped = await ctx.store.runs.ended(audit, run.id, end ?? leftBehind());
  if (inTeam(ctx)) await handBack(ctx, id, run.id);
  return shown(stopped, undefined, ctx.config.port);
}

/** The end of a run the host has no record of: a service before this one started it and stopped without closing it. */
const leftBehind = () => ({
  state: 'crashed' as const,
  end_reason: 'service_stopped' as const,
  exit_code: null,
  error: 'the service stopped without closing this browser',
  ended_at: Date.now(),
});

/**
 * A batch: each profile on its own, a few at a time, in the order given. An item that fails is its
 * own result (and, like a single route's failure, an audit entry), never the batch's.
 */
async function batch(
  ctx: RequestContext,
  audit: AuditContext,
  ids: readonly string[],
  /** The single route each item is, as its failure is audited. */
  item: Pick<Contract, 'method' | 'path'>,
  one: (id: string) => Promise<Run>,
): Promise<RunBatchResults> {
  const results: RunBatchResults['results'] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const at = next++;
      const id = ids[at]!;
      try {
        results[at] = { id, ok: true, run: await one(id), error: null };
      } catch (thrown) {
        const error = toApiError(thrown);
        if (error.status === 500) console.error(`a batch item (${id}) failed:`, thrown);
        await ctx.store.system.recordFailure(
          { audit, request: { method: item.method, path: item.path.replace(':id', id), client_ip: ctx.clientIp } },
          error.code,
          error.status,
        );
        results[at] = { id, ok: false, run: null, error: errorBody(error, audit.request_id ?? '').error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_AT_ONCE, ids.length) }, worker));
  return { results };
}

/** A deleted profile's live run, killed and recorded as stopped by whoever deleted it. */
export async function endRunsOf(ctx: RequestContext, audit: AuditContext, profileId: string): Promise<void> {
  await syncRuns(ctx);
  for (const run of await ctx.store.runs.live()) {
    if (run.profile_id !== profileId) continue;
    const end = await ctx.host.runs.stop(run.id, true);
    await ctx.store.runs.ended({ ...audit, action: 'runs.stop' }, run.id, end ?? leftBehind());
    if (inTeam(ctx)) await releaseLease(ctx, run.profile_id, run.id);
  }
}

export const runRoutes = implement(runs, {
  batchStart: ({ ctx, body, audit }) => {
    const { ids, ...options } = body;
    return batch(ctx, audit!, ids, runs.start, (id) => startOne(ctx, audit!, id, options));
  },
  batchStop: ({ ctx, body, audit }) =>
    batch(ctx, audit!, body.ids, runs.stop, (id) => stopOne(ctx, audit!, id, body.force)),
  stopAll: async ({ ctx, body, audit }) => {
    await syncRuns(ctx);
    const live = [...new Set((await ctx.store.runs.live()).map((run) => run.profile_id))];
    return batch(ctx, audit!, live, runs.stop, (id) => stopOne(ctx, audit!, id, body.force));
  },
  start: ({ ctx, params, body, audit }) => startOne(ctx, audit!, params.id, body),
  stop: ({ ctx, params, body, audit }) => stopOne(ctx, audit!, params.id, body.force),
  read: async ({ ctx, params }) => {
    await knownHere(ctx, params.id);
    const live = await syncRuns(ctx);
    const run = await ctx.store.runs.latest(params.id);
    if (!run) throw new ApiError('resource.not_found', { resource: 'run', id: params.id });
    return shown(run, live.get(run.id), ctx.config.port);
  },
  screenshot: async ({ ctx, params }) => {
    await knownHere(ctx, params.id);
    const live = await syncRuns(ctx);
    const run = await ctx.store.runs.latest(params.id);
    if (!run || !live.has(run.id)) throw new ApiError('run.not_running');
    const png = await ctx.host.runs.screenshot(run.id).catch((error: unknown) => ({ error }));
    if (typeof png === 'string') return { run_id: run.id, png_base64: png, taken_at: Date.now() };
    // A stop or a crash while the picture is taken closes the browser under it: the host's call fails,
    // or finds no page. That is a run no longer running, as a request a moment later would be told.
    if (!(await syncRuns(ctx)).has(run.id)) throw new ApiError('run.not_running');
    if (png === null) throw new ApiError('resource.not_found', { resource: 'page', id: params.id });
    throw png.error;
  },
  checkProxy: async ({ ctx, params, body, audit }) => {
    const proxy = await requireProxy(ctx, params.id);
    const { error: _error, ...check } = await ctx.host.runs.checkProxy(proxy, body.url, PROXY_CHECK_MS);
    await ctx.store.profiles.proxyChecked(audit!, params.id, body.url, check);
    return check;
  },
  list: async ({ ctx }) => {
    const live = await syncRuns(ctx);
    return { items: (await ctx.store.runs.live()).map((run) => shown(run, live.get(run.id), ctx.config.port)) };
  },
});
