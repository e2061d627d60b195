import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { Id } from '../src/shared/schemas/ids';
import { Ok } from '../src/shared/schemas/ok';
import { ImportRequest, ImportResult, NewShare, RedeemPreview, RedeemRequest, ShareList, ShareWithCode } from '../storage/shares/schema';

export const automationShareRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/shares',
    tag: 'Automation',
    summary: 'Shares that are not revoked; never their codes',
    scopes: ['runtime:control'],
    response: ShareList,
    handler: async ({ ctx }) => ({ items: await ctx.store.shares.list() }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/shares',
    tag: 'Automation',
    summary: 'Share flows: an encrypted bundle and its code, which is shown only in this answer',
    scopes: ['runtime:control', 'secrets:read', 'rpa:write'],
    body: NewShare,
    response: ShareWithCode,
    audit: 'shares.create',
    errors: ['flows.unknown', 'shares.dependencies_outside', 'shares.bundle_too_large', 'vault.locked'],
    handler: ({ ctx, body, audit }) => ctx.store.shares.create(audit, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/automation/shares/:id',
    tag: 'Automation',
    summary: 'Revoke a share: its code stops working and its bundle is deleted',
    scopes: ['runtime:control', 'rpa:write'],
    params: z.object({ id: Id }),
    response: Ok,
    audit: 'shares.revoke',
    errors: ['resource.not_found'],
    handler: async ({ ctx, params, audit }) => {
      await ctx.store.shares.revoke(audit, params.id);
      return { ok: true as const };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/shares/redeem',
    tag: 'Automation',
    summary: 'Redeem a share code (one use) for an import preview and ticket',
    scopes: ['runtime:control', 'rpa:write'],
    body: RedeemRequest,
    response: RedeemPreview,
    audit: 'shares.redeem',
    errors: [
      'shares.code_malformed', 'shares.code_unknown', 'shares.code_invalid', 'shares.revoked', 'shares.expired', 'shares.exhausted',
      'vault.locked',
    ],
    handler: ({ ctx, body, audit }) => ctx.store.shares.redeem(audit, body.code),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/shares/import',
    tag: 'Automation',
    summary: 'Import chosen items of a redeemed share as new flows',
    scopes: ['runtime:control', 'rpa:write'],
    body: ImportRequest,
    response: ImportResult,
    audit: 'shares.import',
    errors: [
      'shares.ticket_unknown', 'shares.ticket_used', 'shares.ticket_expired', 'shares.revoked', 'shares.import_unknown_items',
      'shares.import_dependencies_missing', 'vault.locked',
    ],
    handler: ({ ctx, body, audit }) => ctx.store.shares.import(audit, body),
  }),
];
