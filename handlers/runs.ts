import type { Contract } from '../src/contracts/define';
import { runs } from '../src/contracts/runs';
import type { HostPort } from '../src/host/port';
import { devtoolsBase, type LiveRun } from '../src/host/runs-schema';
import { ApiError } from '../src/shared/errors/api-error';
import { errorBody, toApiError } from '../src/shared/errors/envelope';
import { patchBrowserSettings } from '../src/shared/schemas/browser-settings';
import type { Run, RunBatchResults, RunStart } from '../src/shared/schemas/run';
import { perStore } from '../src/shared/store-memory';
import { type AuditContext, SYSTEM_ACTOR } from '../storage/audit/entry';
import type { StoreClient } from '../storage/client';
import type { StoredRun } from '../storage/runs/runs';
import type { RequestContext } from './context';
import { implement } from './implement';
import { runQuota } from './membership/provider';

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
 * Brings the store's live runs in step with the host's processes: a run the host saw end is recorded
 * as it ended (audited as `runs.end`); a run the host does not know at all was left by a service that
 * stopped without closing it (`crashed`, `service_stopped`). A run being stopped is its stop's to record.
 */
async function syncRuns(host: HostPort, store: StoreClient): Promise<Map<string, LiveRun>> {
  const [stored, known] = await Promise.all([store.runs.live(), host.runs.list()]);
  const live = new Map(known.live.map((run) => [run.run_id, run]));
  const starting = new Set(known.starting);
  const ended = new Map(known.ended.map((end) => [end.run_id, end]));
  for (const run of stored) {
    if (live.has(run.id) || starting.has(run.id) || run.state === 'stopping') continue;
    const end = ended.get(run.id);
    await store.runs.ended(SEEN_BY_SERVICE, run.id, end ?? leftBehind());
  }
  return live;
}

/** The store's watch of its live runs: one timer per store, running while any run is live. */
const watches = perStore(() => ({ timer: null as ReturnType<typeof setTimeout> | null }));

/** Starts the watch if it is not running; it stops itself once no run is live. */
export function watchRuns(ctx: Pick<RequestContext, 'host' | 'store' | 'memory'>): void {
  const watch = watches.of(ctx.memory);
  if (watch.timer !== null) return;
  const tick = async () => {
    watch.timer = null;
    try {
      await syncRuns(ctx.host, ctx.store);
      if ((await ctx.store.runs.live()).length === 0) return;
    } catch (error) {
      console.error('the runs could not be brought in step with the host:', error);
    }
    watch.timer ??= setTimeout(tick, WATCH_MS);
  };
  watch.timer = setTimeout(tick, 0);
}

/** How many browsers a batch starts or stops at once: a few, so that a batch of 100 does not swamp the machine. */
const BATCH_AT_ONCE = 3;

/** One profile's start, as the single route and each item of a batch run it. */
async function startOne(ctx: RequestContext, audit: AuditContext, id: string, options: RunStart): Promise<Run> {
  const profile = await ctx.store.profiles.get(id);
  const { url, timeout_ms, debug_port: debugPort, ...settings } = options;
  const browser = patchBrowserSettings(profile.browser, {
    ...settings,
    start_urls: url === undefined ? undefined : [url],
  });
  const found = await ctx.host.runs.browser();
  if (!found.found) throw new ApiError('run.browser_missing', { problem: found.problem });
  await syncRuns(ctx.host, ctx.store);
  const run = await ctx.store.runs.begin(
    { id: crypto.randomUUID(), profile_id: id, headless: browser.headless, started_at: Date.now() },
    await runQuota(ctx),
  );
  const started = await ctx.host.runs.start({
    run_id: run.id,
    profile_id: id,
    browser,
    timeout_ms,
    debug_port: debugPort,
  });
  if (!started.ok) {
    await ctx.store.runs.failed(run.id, started.error);
    if (started.reason === 'browser_missing') throw new ApiError('run.browser_missing', { problem: started.error });
    throw new ApiError('run.start_failed', { run_id: run.id, error: started.error });
  }
  const { pid, browser_version, debug_port } = started.run;
  const running = await ctx.store.runs.running(audit, run.id, { pid, browser_version, debug_port });
  watchRuns(ctx);
  return shown(running, started.run, ctx.config.port);
}

/** One profile's stop; `run.not_running` when it has no live run. */
async function stopOne(ctx: RequestContext, audit: AuditContext, id: string, force: boolean): Promise<Run> {
  await ctx.store.profiles.get(id);
  await syncRuns(ctx.host, ctx.store);
  const run = await ctx.store.runs.latest(id);
  if (!run || (run.state !== 'running' && run.state !== 'stopping')) throw new ApiError('run.not_running');
  await ctx.store.runs.stopping(run.id);
  const end = await ctx.host.runs.stop(run.id, force);
  return shown(await ctx.store.runs.ended(audit, run.id, end ?? leftBehind()), undefined, ctx.config.port);
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
  await syncRuns(ctx.host, ctx.store);
  for (const run of await ctx.store.runs.live()) {
    if (run.profile_id !== profileId) continue;
    const end = await ctx.host.runs.stop(run.id, true);
    await ctx.store.runs.ended({ ...audit, action: 'runs.stop' }, run.id, end ?? leftBehind());
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
    await syncRuns(ctx.host, ctx.store);
    const live = [...new Set((await ctx.store.runs.live()).map((run) => run.profile_id))];
    return batch(ctx, audit!, live, runs.stop, (id) => stopOne(ctx, audit!, id, body.force));
  },
  start: ({ ctx, params, body, audit }) => startOne(ctx, audit!, params.id, body),
  stop: ({ ctx, params, body, audit }) => stopOne(ctx, audit!, params.id, body.force),
  read: async ({ ctx, params }) => {
    await ctx.store.profiles.get(params.id);
    const live = await syncRuns(ctx.host, ctx.store);
    const run = await ctx.store.runs.latest(params.id);
    if (!run) throw new ApiError('resource.not_found', { resource: 'run', id: params.id });
    return shown(run, live.get(run.id), ctx.config.port);
  },
  screenshot: async ({ ctx, params }) => {
    await ctx.store.profiles.get(params.id);
    const live = await syncRuns(ctx.host, ctx.store);
    const run = await ctx.store.runs.latest(params.id);
    if (!run || !live.has(run.id)) throw new ApiError('run.not_running');
    const png = await ctx.host.runs.screenshot(run.id).catch((error: unknown) => ({ error }));
    if (typeof png === 'string') return { run_id: run.id, png_base64: png, taken_at: Date.now() };
    // A stop or a crash while the picture is taken closes the browser under it: the host's call fails,
    // or finds no page. That is a run no longer running, as a request a moment later would be told.
    if (!(await syncRuns(ctx.host, ctx.store)).has(run.id)) throw new ApiError('run.not_running');
    if (png === null) throw new ApiError('resource.not_found', { resource: 'page', id: params.id });
    throw png.error;
  },
  list: async ({ ctx }) => {
    const live = await syncRuns(ctx.host, ctx.store);
    return { items: (await ctx.store.runs.live()).map((run) => shown(run, live.get(run.id), ctx.config.port)) };
  },
});
