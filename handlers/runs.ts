import { runs } from '../src/contracts/runs';
import type { HostPort } from '../src/host/port';
import type { LiveRun } from '../src/host/runs-schema';
import { ApiError } from '../src/shared/errors/api-error';
import type { Run } from '../src/shared/schemas/run';
import { perStore } from '../src/shared/store-memory';
import { type AuditContext, SYSTEM_ACTOR } from '../storage/audit/entry';
import type { StoreClient } from '../storage/client';
import type { StoredRun } from '../storage/runs/runs';
import type { RequestContext } from './context';
import { implement } from './implement';

/** How often the store asks the host about its live runs, while it has any: a crash is recorded within this. */
const WATCH_MS = 2_000;

/** The audit context of an end nobody asked for: the service saw it. */
const SEEN_BY_SERVICE: AuditContext = { actor: SYSTEM_ACTOR, source: 'system', request_id: null, action: 'runs.end' };

/** A run as the API shows it: its endpoints while its browser is alive (the secret is the host's). */
function shown(run: StoredRun, live: LiveRun | undefined, port: number): Run {
  const base = live ? `127.0.0.1:${port}/devtools/${live.secret}` : null;
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
    await store.runs.ended(
      SEEN_BY_SERVICE,
      run.id,
      end ?? {
        state: 'crashed',
        end_reason: 'service_stopped',
        exit_code: null,
        error: 'the service stopped without closing this browser',
        ended_at: Date.now(),
      },
    );
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

export const runRoutes = implement(runs, {
  start: async ({ ctx, params, body, audit }) => {
    await ctx.store.profiles.get(params.id);
    const found = await ctx.host.runs.browser();
    if (!found.found) throw new ApiError('run.browser_missing', { problem: found.problem });
    await syncRuns(ctx.host, ctx.store);
    const run = await ctx.store.runs.begin({
      id: crypto.randomUUID(),
      profile_id: params.id,
      headless: body.headless,
      started_at: Date.now(),
    });
    const started = await ctx.host.runs.start({
      run_id: run.id,
      profile_id: params.id,
      headless: body.headless,
      url: body.url ?? null,
      args: body.args,
      timeout_ms: body.timeout_ms,
      debug_port: body.debug_port,
    });
    if (!started.ok) {
      await ctx.store.runs.failed(run.id, started.error);
      if (started.reason === 'browser_missing') throw new ApiError('run.browser_missing', { problem: started.error });
      throw new ApiError('run.start_failed', { run_id: run.id, error: started.error });
    }
    const { pid, browser_version, debug_port } = started.run;
    const running = await ctx.store.runs.running(audit!, run.id, { pid, browser_version, debug_port });
    watchRuns(ctx);
    return shown(running, started.run, ctx.config.port);
  },
  stop: async ({ ctx, params, body, audit }) => {
    await ctx.store.profiles.get(params.id);
    await syncRuns(ctx.host, ctx.store);
    const run = await ctx.store.runs.latest(params.id);
    if (!run || (run.state !== 'running' && run.state !== 'stopping')) throw new ApiError('run.not_running');
    await ctx.store.runs.stopping(run.id);
    const end = await ctx.host.runs.stop(run.id, body.force);
    const ended = await ctx.store.runs.ended(
      audit!,
      run.id,
      end ?? {
        state: 'crashed',
        end_reason: 'service_stopped',
        exit_code: null,
        error: 'the service stopped without closing this browser',
        ended_at: Date.now(),
      },
    );
    return shown(ended, undefined, ctx.config.port);
  },
  read: async ({ ctx, params }) => {
    await ctx.store.profiles.get(params.id);
    const live = await syncRuns(ctx.host, ctx.store);
    const run = await ctx.store.runs.latest(params.id);
    if (!run) throw new ApiError('resource.not_found', { resource: 'run', id: params.id });
    return shown(run, live.get(run.id), ctx.config.port);
  },
  list: async ({ ctx }) => {
    const live = await syncRuns(ctx.host, ctx.store);
    return { items: (await ctx.store.runs.live()).map((run) => shown(run, live.get(run.id), ctx.config.port)) };
  },
});
