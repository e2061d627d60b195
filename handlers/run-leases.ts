import { runLeases } from '../src/contracts/run-leases';
import { DEFAULT_LEASE_MS } from '../storage/leases/schema';
import type { RequestContext } from './context';
import { implement } from './implement';

const leaseMs = (ctx: RequestContext) => ctx.config.runLeaseMs ?? DEFAULT_LEASE_MS;

/** The team's leases of its profiles, for the team service only (src/contracts/run-leases.ts). */
export const runLeaseRoutes = implement(runLeases, {
  list: async ({ ctx }) => ({ items: await ctx.store.leases.live() }),
  take: ({ ctx, params, body, audit }) =>
    ctx.store.leases.take(
      audit,
      {
        ...body,
        profile_id: params.id,
        machine_id: ctx.via?.machine_id ?? null,
        who: ctx.principal?.actor.label ?? 'anonymous',
      },
      leaseMs(ctx),
    ),
  renew: ({ ctx, params, body }) => ctx.store.leases.renew(params.id, body.run_id, leaseMs(ctx)),
  release: async ({ ctx, params, body, audit }) => {
    await ctx.store.leases.release(audit, params.id, body.run_id);
    return { ok: true as const };
  },
  break: ({ ctx, params, audit }) => ctx.store.leases.break(audit, params.id),
});
