import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { SCOPES } from '../src/shared/scopes';

const TokenId = z.string().min(1).max(64);

const Token = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    admin: z.boolean(),
    created_at: z.int(),
    expires_at: z.int().nullable(),
  })
  .meta({ id: 'Token' });

export const tokenRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/tokens',
    tag: 'Tokens',
    summary: 'Issue a token; its secret is shown once and stored only as a hash',
    access: 'admin',
    body: z
      .object({
        name: z.string().min(1).max(120),
        scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).refine((s) => new Set(s).size === s.length, 'Scopes must be unique'),
        admin: z.boolean().optional(),
        expires_in_minutes: z.int().min(1).max(5_256_000).optional(),
      })
      .strict(),
    status: 201,
    response: Token.extend({ token: z.string() }),
    audit: 'tokens.create',
    handler: ({ ctx, body, audit }) => ctx.store.tokens.create(audit, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/tokens',
    tag: 'Tokens',
    summary: 'Live tokens (not revoked), without their secrets',
    access: 'admin',
    response: z.object({ items: z.array(Token) }),
    handler: async ({ ctx }) => ({ items: await ctx.store.tokens.list() }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/tokens/:id',
    tag: 'Tokens',
    summary: 'Revoke a token; it is refused from the next request on',
    access: 'admin',
    params: z.object({ id: TokenId }),
    response: z.object({ ok: z.literal(true) }),
    audit: 'tokens.revoke',
    errors: ['resource.not_found'],
    handler: ({ ctx, params, audit }) => ctx.store.tokens.revoke(audit, params.id),
  }),
];
