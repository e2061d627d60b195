import { flowRuns } from '../src/contracts/flow-runs';
import { cancelJob, startJob } from './flow-job';
import { implement } from './implement';
import { assertEntitled } from './membership/provider';

export const flowRunRoutes = implement(flowRuns, {
  run: async ({ ctx, params, body, audit }) => {
    await assertEntitled(ctx, 'automation');
    return startJob(ctx, audit, params.id, body);
  },
  list: async ({ ctx }) => ({ items: await ctx.store.flowRuns.list() }),
  read: ({ ctx, params }) => ctx.store.flowRuns.get(params.job_id),
  cancel: ({ ctx, params, audit }) => cancelJob(ctx, audit, params.job_id),
});
