import { flows } from '../src/contracts/flows';
import { implement } from './implement';

export const flowRoutes = implement(flows, {
  create: ({ ctx, body, audit }) => ctx.store.flows.create(audit, body),
  list: async ({ ctx }) => ({ items: await ctx.store.flows.list() }),
  read: ({ ctx, params }) => ctx.store.flows.get(params.id),
  update: ({ ctx, params, body, audit }) => ctx.store.flows.update(audit, params.id, body),
  delete: async ({ ctx, params, audit }) => {
    await ctx.store.flows.delete(audit, params.id);
    return { ok: true as const };
  },
});
