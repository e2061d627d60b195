import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { Id, IdList } from '../src/schemas/ids';

const Share = z
  .object({
    id: z.string(),
    name: z.string(),
    expires_at: z.int(),
    max_uses: z.int(),
    uses: z.int(),
    size: z.int().meta({ description: 'Bytes of the plaintext bundle.' }),
    sha256: z.string().meta({ description: 'SHA-256 (hex) of the plaintext bundle.' }),
  })
  .meta({ id: 'Share' });

const PreviewItem = z.object({
  id: z.string(),
  name: z.string(),
  dependencies: z.array(z.string()),
  group: z.string().nullable(),
  description: z.string().nullable(),
  missing_values: z.int(),
  is_template: z.boolean(),
  steps: z.int(),
  protected_values: z.int(),
});

const RedeemPreview = z
  .object({
    sha256: z.string(),
    created_at: z.string().meta({ description: 'When the share was created, ISO 8601.' }),
    ticket: z.string().meta({ description: 'Import ticket: one successful import, within 30 minutes.' }),
    expires_at: z.int().meta({ description: 'When the ticket expires.' }),
    items: z.array(PreviewItem),
  })
  .meta({ id: 'ShareRedeemPreview' });

const ok = z.object({ ok: z.literal(true) });

export const automationShareRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/shares',
    tag: 'Automation',
    summary: 'Shares that are not revoked; never their codes',
    scopes: ['runtime:control'],
    response: z.object({ items: z.array(Share) }),
    handler: async ({ ctx }) => ({ items: await ctx.store.shares.list() }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/shares',
    tag: 'Automation',
    summary: 'Share flows: an encrypted bundle and its code, which is shown only in this answer',
    scopes: ['runtime:control', 'secrets:read', 'rpa:write'],
    body: z
      .object({
        ids: IdList,
        name: z.string().min(1).max(120),
        expires_in_minutes: z.int().min(1).max(43_200),
        max_uses: z.int().min(1).max(1000),
        include_secrets: z.boolean().optional(),
      })
      .strict(),
    response: Share.extend({ code: z.string().meta({ description: 'The share code; shown once.' }) }),
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
    response: ok,
    audit: 'shares.revoke',
    errors: ['resource.not_found'],
    handler: ({ ctx, params, audit }) => ctx.store.shares.revoke(audit, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/shares/redeem',
    tag: 'Automation',
    summary: 'Redeem a share code (one use) for an import preview and ticket',
    scopes: ['runtime:control', 'rpa:write'],
    body: z.object({ code: z.string().min(8).max(2010) }).strict(),
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
    body: z.object({ ticket: z.string().length(36).regex(/^[a-f0-9-]{36}$/), ids: IdList }).strict(),
    response: z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), is_template: z.boolean() })) }),
    audit: 'shares.import',
    errors: [
      'shares.ticket_unknown', 'shares.ticket_used', 'shares.ticket_expired', 'shares.revoked', 'shares.import_unknown_items',
      'shares.import_dependencies_missing', 'vault.locked',
    ],
    handler: ({ ctx, body, audit }) => ctx.store.shares.import(audit, body.ticket, body.ids),
  }),
];
