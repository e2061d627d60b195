import { tokens } from '../src/contracts/tokens';
import { implement } from './implement';

export const tokenRoutes = implement(tokens, {
  create: ({ ctx, body, audit }) => ctx.store.tokens.create(audit, body),
  list: async ({ ctx }) => ({ items: await ctx.store.tokens.list() }),
  self: async ({ ctx }) => {
    const { actor, scopes, admin } = ctx.principal!;
    const issued =
      actor.type === 'token' ? (await ctx.store.tokens.list()).find((token) => token.id === actor.id) : undefined;
    return {
      id: issued?.id ?? null,
      name: issued?.name ?? actor.label,
      scopes: [...scopes],
      admin,
      expires_at: issued?.expires_at ?? null,
    };
  },
  revoke: async ({ ctx, params, audit }) => {
    await ctx.store.tokens.revoke(audit, params.id);
    return { ok: true as const };
  },
});
