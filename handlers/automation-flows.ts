import { z } from 'zod';
import { DEFAULT_BODY_LIMIT, defineRoute } from '../src/routes/define';
import { Id, unique } from '../src/schemas/ids';

const FlowValueInput = z
  // A value has no bound of its own in the spec: the body limit is its bound, stated so that the document shows one.
  .object({ name: z.string().min(1).max(120), value: z.string().max(DEFAULT_BODY_LIMIT).nullable().optional(), protected: z.boolean().optional() })
  .strict();

const NewFlow = z
  .object({
    name: z.string().min(1).max(120),
    group: z.string().min(1).max(120).nullable().optional(),
    description: z.string().max(4000).nullable().optional(),
    is_template: z.boolean().optional(),
    dependencies: z.array(Id).max(1000).refine(unique, 'Dependencies must be unique').optional(),
    steps: z.array(z.record(z.string(), z.unknown())).max(10_000),
    values: z
      .array(FlowValueInput)
      .max(1000)
      .refine((values) => unique(values.map((v) => v.name)), 'Value names must be unique')
      .optional(),
  })
  .strict();

const flowFields = {
  id: z.string(),
  name: z.string(),
  group: z.string().nullable(),
  description: z.string().nullable(),
  is_template: z.boolean(),
  dependencies: z.array(z.string()),
  created_at: z.int(),
  updated_at: z.int(),
};

const FlowSummary = z
  .object({ ...flowFields, step_count: z.int(), value_count: z.int() })
  .meta({ id: 'FlowSummary' });

const Flow = z
  .object({
    ...flowFields,
    steps: z.array(z.record(z.string(), z.unknown())),
    values: z.array(
      z.object({
        name: z.string(),
        value: z.string().nullable().meta({ description: 'Always null for a protected value: those are never shown.' }),
        protected: z.boolean(),
        value_set: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'Flow' });

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
    response: z.object({ items: z.array(FlowSummary) }),
    handler: async ({ ctx }) => ({ items: await ctx.store.flows.list() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/flows/:id',
    tag: 'Automation',
    summary: 'One flow with its steps and values (protected values as null)',
    scopes: ['runtime:control'],
    params: z.object({ id: Id }),
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
    params: z.object({ id: Id }),
    response: z.object({ ok: z.literal(true) }),
    audit: 'flows.delete',
    errors: ['resource.not_found', 'flows.has_dependents'],
    handler: ({ ctx, params, audit }) => ctx.store.flows.delete(audit, params.id),
  }),
];
