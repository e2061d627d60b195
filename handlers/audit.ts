import { audit } from '../src/contracts/audit';
import { DEFAULT_LIST_LIMIT } from '../storage/audit/filters';
import { withoutLinks } from '../storage/audit/record';
import { exportAudit } from './audit-export';
import { implement } from './implement';

export const auditRoutes = implement(audit, {
  list: async ({ ctx, query }) => {
    const { before_seq, limit, ...rest } = query;
    const page = await ctx.store.audit.list(rest, { before_seq }, limit ?? DEFAULT_LIST_LIMIT);
    return { items: page.items.map(withoutLinks), next_before_seq: page.next_seq };
  },
  verify: async ({ ctx }) => {
    let step = await ctx.store.audit.verifySlice(null);
    while (!step.done) {
      // One turn of the event loop first: requests that arrived during the slice are served
      // before the next slice, not queued behind it (the Worker and the store share one isolate).
      await new Promise((resolve) => setTimeout(resolve, 0));
      step = await ctx.store.audit.verifySlice(step.cursor);
    }
    return step.result;
  },
  checkpoint: ({ ctx }) => ctx.store.audit.checkpoint(),
  publicKey: ({ ctx }) => ctx.store.audit.publicKey(),
  export: ({ ctx, query }) => {
    const { format, ...rest } = query;
    return exportAudit(ctx.store, rest, format, Date.now());
  },
});
