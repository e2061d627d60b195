import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { Id } from '../src/shared/schemas/ids';
import { Ok } from '../src/shared/schemas/ok';
import { CreatedToken, TokenInput, TokenList } from '../storage/tokens/schema';

export const tokenRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/tokens',
    tag: 'Tokens',
    summary: 'Issue a token; its secret is shown once and stored only as a hash',
    access: 'admin',
    body: TokenInput,
    status: 201,
    response: CreatedToken,
    audit: 'tokens.create',
    handler: ({ ctx, body, audit }) => ctx.store.tokens.create(audit, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/tokens',
    tag: 'Tokens',
    summary: 'Live tokens (not revoked), without their secrets',
    access: 'admin',
    response: TokenList,
    handler: async ({ ctx }) => ({ items: await ctx.store.tokens.list() }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/tokens/:id',
    tag: 'Tokens',
    summary: 'Revoke a token; it is refused from the next request on',
    access: 'admin',
    params: z.object({ id: Id }),
    response: Ok,
    audit: 'tokens.revoke',
    errors: ['resource.not_found'],
    handler: async ({ ctx, params, audit }) => {
      await ctx.store.tokens.revoke(audit, params.id);
      return { ok: true as const };
    },
  }),
];
