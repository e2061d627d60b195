import { members } from '../src/contracts/members';
import { implement } from './implement';

/** The members family, for the team service only (src/contracts/members.ts). */
export const memberRoutes = implement(members, {
  list: async ({ ctx }) => ({ items: await ctx.store.members.list() }),
  set: ({ ctx, params, body, audit }) => ctx.store.members.set(audit, params.email, body.role),
  remove: async ({ ctx, params, audit }) => {
    await ctx.store.members.remove(audit, params.email);
    return { ok: true as const };
  },
});
