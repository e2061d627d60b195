import { profiles } from '../src/contracts/profiles';
import { implement } from './implement';
import { profileQuota } from './membership/provider';
import { endRunsOf } from './runs';

export const profileRoutes = implement(profiles, {
  create: async ({ ctx, body, audit }) => ctx.store.profiles.create(audit, body, await profileQuota(ctx)),
  list: ({ ctx, query }) => ctx.store.profiles.list(query),
  read: ({ ctx, params }) => ctx.store.profiles.get(params.id),
  update: ({ ctx, params, body, audit }) => ctx.store.profiles.update(audit, params.id, body),
  delete: async ({ ctx, params, audit }) => {
    await ctx.store.profiles.delete(audit, params.id);
    // Its browser goes with it: a live one is killed (handlers/runs.ts), then its folder is removed.
    await endRunsOf(ctx, audit!, params.id);
    await ctx.host.runs.forget(params.id);
    return undefined;
  },
});
