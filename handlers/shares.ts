import { shares } from '../src/contracts/shares';
import { implement } from './implement';

export const shareRoutes = implement(shares, {
  list: async ({ ctx }) => ({ items: await ctx.store.shares.list() }),
  create: ({ ctx, body, audit }) => ctx.store.shares.create(audit, body),
  revoke: async ({ ctx, params, audit }) => {
    await ctx.store.shares.revoke(audit, params.id);
    return { ok: true as const };
  },
  redeem: ({ ctx, body, audit }) => ctx.store.shares.redeem(audit, body.code),
  import: ({ ctx, body, audit }) => ctx.store.shares.import(audit, body),
});
