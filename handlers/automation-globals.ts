import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { Ok } from '../src/shared/schemas/ok';
import { GLOBAL_VALUE_MAX_CHARS, GlobalDelete, GlobalList, GlobalName, GlobalSummary, GlobalValue, GlobalWrite } from '../storage/globals/schema';

/**
 * The body limit fits the largest legal value however a JSON encoder writes it: a character can
 * take up to six bytes (`\u001f`), plus the field names, the revision and some white space.
 */
const GLOBAL_BODY_LIMIT = 6 * GLOBAL_VALUE_MAX_CHARS + 64 * 1024;

const Named = z.object({ name: GlobalName });

export const automationGlobalRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/globals',
    tag: 'Automation',
    summary: 'Automation globals, without their values',
    scopes: ['runtime:control'],
    response: GlobalList,
    handler: async ({ ctx }) => ({ items: await ctx.store.globals.list() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/globals/:name',
    tag: 'Automation',
    summary: 'The plaintext value of a global; the read is audited',
    scopes: ['runtime:control', 'secrets:read'],
    params: Named,
    response: GlobalValue,
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
    params: Named,
    body: GlobalWrite,
    bodyLimit: GLOBAL_BODY_LIMIT,
    response: GlobalSummary,
    audit: 'globals.write',
    errors: ['state.revision_conflict', 'vault.locked'],
    handler: ({ ctx, params, body, audit }) => ctx.store.globals.write(audit, params.name, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/automation/globals/:name',
    tag: 'Automation',
    summary: 'Delete a global at the given revision',
    scopes: ['runtime:control', 'rpa:write'],
    params: Named,
    query: GlobalDelete,
    response: Ok,
    audit: 'globals.delete',
    errors: ['resource.not_found', 'state.revision_conflict'],
    handler: async ({ ctx, params, query, audit }) => {
      await ctx.store.globals.delete(audit, params.name, query);
      return { ok: true as const };
    },
  }),
];
