import { profiles } from '../src/contracts/profiles';
import { implement } from './implement';
import { profileQuota } from './membership/provider';

export const profileRoutes = implement(profiles, {
  create: async ({ ctx, body, audit }) => ctx.store.profiles.create(audit, body, await profileQuota(ctx)),
  list: ({ ctx, query }) => ctx.store.profiles.list(query),
  read: ({ ctx, params }) => ctx.store.profiles.get(params.id),
  update: ({ ctx, params, body, audit }) => ctx.store.profiles.update(audit, params.id, body),
  delete: ({ ctx, params, audit }) => ctx.store.profiles.delete(audit, params.id).then(() => undefined),
});
