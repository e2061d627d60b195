import { tokens } from '../src/contracts/tokens';
import { implement } from './implement';

export const tokenRoutes = implement(tokens, {
  create: ({ ctx, body, audit }) => ctx.store.tokens.create(audit, body),
  list: async ({ ctx }) => ({ items: await ctx.store.tokens.list() }),
  revoke: async ({ ctx, params, audit }) => {
    await ctx.store.tokens.revoke(audit, params.id);
    return { ok: true as const };
  },
});
