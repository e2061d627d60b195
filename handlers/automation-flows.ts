import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { Id } from '../src/shared/schemas/ids';
import { Ok } from '../src/shared/schemas/ok';
import { Flow, FlowList, NewFlow } from '../storage/flows/schema';

const Identified = z.object({ id: Id });

export const automationFlowRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/automation/flows',
    tag: 'Automation',
    summary: 'Create a flow; protected values are encrypted at rest and never shown again',
    scopes: ['runtime:control', 'rpa:write'],
    body: NewFlow,
    status: 201,
    response: Flow,
    audit: 'flows.create',
    errors: ['flows.unknown', 'vault.locked'],
    handler: ({ ctx, body, audit }) => ctx.store.flows.create(audit, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/flows',
    tag: 'Automation',
    summary: 'Flow summaries, oldest first',
    scopes: ['runtime:control'],
    response: FlowList,
    handler: async ({ ctx }) => ({ items: await ctx.store.flows.list() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/flows/:id',
    tag: 'Automation',
    summary: 'One flow with its steps and values (protected values as null)',
    scopes: ['runtime:control'],
    params: Identified,
    response: Flow,
    errors: ['resource.not_found'],
    handler: ({ ctx, params }) => ctx.store.flows.get(params.id),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/automation/flows/:id',
    tag: 'Automation',
    summary: 'Delete a flow that no other flow depends on',
    scopes: ['runtime:control', 'rpa:write'],
    params: Identified,
    response: Ok,
    audit: 'flows.delete',
    errors: ['resource.not_found', 'flows.has_dependents'],
    handler: async ({ ctx, params, audit }) => {
      await ctx.store.flows.delete(audit, params.id);
      return { ok: true as const };
    },
  }),
];
