import { synchronizer } from '../src/contracts/synchronizer';
import { ApiError } from '../src/shared/errors/api-error';
import { RunStart } from '../src/shared/schemas/run';
import type { SynchronizerStatus } from '../src/shared/schemas/synchronizer';
import type { AuditContext } from '../storage/audit/entry';
import type { RequestContext } from './context';
import { implement } from './implement';
import { assertEntitled } from './membership/provider';
import { BATCH_AT_ONCE, startOne, stopOne, syncRuns } from './runs';

/**
 * The synchronizer's routes (docs/automation.md#synchronizer). The host runs the session and alone
 * knows its state (src/host/node/synchronizer); the store starts the browsers it needs through the
 * runs' own path and keeps the audit.
 */

const alreadyRunning = (status: SynchronizerStatus) =>
  new ApiError('synchronizer.running', { source_id: status.source_id, follower_ids: status.follower_ids });

/** `each(id)` for every id, a few at a time as a batch of runs goes; the first failure is thrown once all have settled. */
async function inTurns(ids: readonly string[], each: (id: string) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < ids.length && failures.length === 0) {
      const id = ids[next++]!;
      await each(id).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_AT_ONCE, ids.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

/** Stops these profiles' browsers (each a `runs.stop`); one that is no longer running is nothing to stop. */
const stopBrowsers = (ctx: RequestContext, audit: AuditContext, ids: readonly string[]) =>
  inTurns(ids, async (id) => {
    await stopOne(ctx, { ...audit, action: 'runs.stop' }, id, false).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.code === 'run.not_running')) throw error;
    });
  });

export const synchronizerRoutes = implement(synchronizer, {
  status: ({ ctx }) => ctx.host.synchronizer.status(),
  start: async ({ ctx, body, audit }) => {
    await assertEntitled(ctx, 'synchronizer');
    const now = await ctx.host.synchronizer.status();
    if (now.running) throw alreadyRunning(now);
    const ids = [body.source_id, ...body.follower_ids];
    for (const id of ids) await ctx.store.profiles.get(id);
    const live = await syncRuns(ctx);
    const runOf = new Map(
      (await ctx.store.runs.live()).filter((run) => live.has(run.id)).map((run) => [run.profile_id, run.id]),
    );
    const started: string[] = [];
    try {
      const launch = RunStart.parse({ headless: body.headless });
      await inTurns(
        ids.filter((id) => !runOf.has(id)),
        async (id) => {
          const run = await startOne(ctx, { ...audit!, action: 'runs.start' }, id, launch);
          started.push(id);
          runOf.set(id, run.id);
        },
      );
      const member = (id: string) => ({ profile_id: id, run_id: runOf.get(id)! });
      const result = await ctx.host.synchronizer.start({
        source: member(body.source_id),
        followers: body.follower_ids.map(member),
        mode: body.mode,
        options: body.options,
      });
      if (!result.ok) {
        if (result.reason === 'running') throw alreadyRunning(await ctx.host.synchronizer.status());
        throw new ApiError('run.not_running', undefined, `${result.profile_id}: ${result.error}`);
      }
      await ctx.store.system.record(
        audit!,
        'ok',
        {
          entity_type: 'profile',
          entity_id: body.source_id,
          details: { follower_ids: body.follower_ids, mode: body.mode, started, options: body.options },
        },
        null,
      );
      return result.status;
    } catch (error) {
      // No browser the failed start started is left running.
      await stopBrowsers(ctx, audit!, started).catch((stopError: unknown) =>
        console.error('a browser the synchronizer started could not be stopped:', stopError),
      );
      throw error;
    }
  },
  stop: async ({ ctx, body, audit }) => {
    const ended = await ctx.host.synchronizer.stop();
    if (!ended) throw new ApiError('synchronizer.not_running');
    const profiles = [ended.source_id!, ...ended.follower_ids];
    await ctx.store.system.record(
      audit!,
      'ok',
      {
        entity_type: 'profile',
        entity_id: ended.source_id,
        details: { follower_ids: ended.follower_ids, stop_browsers: body.stop_browsers },
      },
      null,
    );
    if (body.stop_browsers) await stopBrowsers(ctx, audit!, profiles);
    return ended;
  },
  removeFollower: async ({ ctx, params, audit }) => {
    if (!(await ctx.host.synchronizer.status()).running) throw new ApiError('synchronizer.not_running');
    const after = await ctx.host.synchronizer.remove(params.id);
    if (!after) throw new ApiError('resource.not_found', { resource: 'follower', id: params.id });
    await ctx.store.system.record(
      audit!,
      'ok',
      { entity_type: 'profile', entity_id: params.id, details: { source_id: after.source_id } },
      null,
    );
    return after;
  },
});
