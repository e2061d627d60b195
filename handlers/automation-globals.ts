import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { queryInt } from '../src/schemas/query';
import { isWellFormed } from '../src/shared/unicode';

const GLOBAL_VALUE_MAX_CHARS = 1_048_576;
/**
 * The body limit fits the largest legal value however a JSON encoder writes it: a character can
 * take up to six bytes (`\u001f`), plus the field names, the revision and some white space.
 */
const GLOBAL_BODY_LIMIT = 6 * GLOBAL_VALUE_MAX_CHARS + 64 * 1024;

const Name = z.string().max(64).regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A global name is a letter or _, then up to 63 letters, digits or _');

const GlobalSummary = z
  .object({ name: z.string(), revision: z.int(), bytes: z.int(), updated_at: z.int() })
  .meta({ id: 'GlobalSummary' });

export const automationGlobalRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/globals',
    tag: 'Automation',
    summary: 'Automation globals, without their values',
    scopes: ['runtime:control'],
    response: z.object({ items: z.array(GlobalSummary) }),
    handler: async ({ ctx }) => ({ items: await ctx.store.globals.list() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/globals/:name',
    tag: 'Automation',
    summary: 'The plaintext value of a global; the read is audited',
    scopes: ['runtime:control', 'secrets:read'],
    params: z.object({ name: Name }),
    response: z.object({ value: z.string(), revision: z.int() }),
    audit: 'globals.read',
    errors: ['resource.not_found', 'vault.locked'],
    handler: ({ ctx, params, audit }) => ctx.store.globals.read(audit, params.name),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v1/automation/globals/:name',
    tag: 'Automation',
    summary: 'Create (expected_revision 0) or change (expected_revision = current revision) a global',
    scopes: ['runtime:control', 'secrets:read', 'rpa:write'],
    params: z.object({ name: Name }),
    body: z
      .object({
        value: z.string().max(GLOBAL_VALUE_MAX_CHARS).refine(isWellFormed, 'The value must be valid Unicode (no lone surrogates)'),
        expected_revision: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
      })
      .strict(),
    bodyLimit: GLOBAL_BODY_LIMIT,
    response: GlobalSummary,
    audit: 'globals.write',
    errors: ['state.revision_conflict', 'vault.locked'],
    handler: ({ ctx, params, body, audit }) => ctx.store.globals.write(audit, params.name, body.value, body.expected_revision),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/automation/globals/:name',
    tag: 'Automation',
    summary: 'Delete a global at the given revision',
    scopes: ['runtime:control', 'rpa:write'],
    params: z.object({ name: Name }),
    query: z.object({ expected_revision: queryInt(1) }).strict(),
    response: z.object({ ok: z.literal(true) }),
    audit: 'globals.delete',
    errors: ['resource.not_found', 'state.revision_conflict'],
    handler: ({ ctx, params, query, audit }) => ctx.store.globals.delete(audit, params.name, query.expected_revision),
  }),
];
