import { audit } from '../src/contracts/audit';
import { DEFAULT_LIST_LIMIT } from '../storage/audit/filters';
import { withoutLinks } from '../storage/audit/record';
import { ApiError } from '../src/shared/errors/api-error';
import { Capacity } from '../src/shared/capacity';
import { perStore } from '../src/shared/store-memory';
import { exportAudit } from './audit-export';
import { implement } from './implement';

/**
 * One verify at a time per store: each reads the whole log, so verifies side by side only slow every
 * other request of that store. The slot is the store's own (its object's memory): one team's verify
 * never refuses another's.
 */
const verifySlot = perStore(() => new Capacity(1));
/** What a refused verify is told to wait: about what a verify of a long log takes. */
export const VERIFY_RETRY_AFTER_S = 5;

export const auditRoutes = implement(audit, {
  list: async ({ ctx, query }) => {
    const { before_seq, limit, ...rest } = query;
    const page = await ctx.store.audit.list(rest, { before_seq }, limit ?? DEFAULT_LIST_LIMIT);
    return { items: page.items.map(withoutLinks), next_before_seq: page.next_seq };
  },
  hashes: ({ ctx, query }) => ctx.store.audit.hashes(query.after_seq ?? 0, query.limit ?? DEFAULT_LIST_LIMIT),
  verify: async ({ ctx }) => {
    const release = verifySlot.of(ctx.memory).tryTake();
    if (!release) {
      throw new ApiError('audit.verify_busy', { retry_after_s: VERIFY_RETRY_AFTER_S }, undefined, {
        'retry-after': String(VERIFY_RETRY_AFTER_S),
      });
    }
    try {
      let step = await ctx.store.audit.verifySlice(null);
      while (!step.done) {
        // One turn of the event loop first: requests that arrived during the slice are served
        // before the next slice, not queued behind it (the Worker and the store share one isolate).
        await new Promise((resolve) => setTimeout(resolve, 0));
        step = await ctx.store.audit.verifySlice(step.cursor);
      }
      return step.result;
    } finally {
      release();
    }
  },
  checkpoint: ({ ctx }) => ctx.store.audit.checkpoint(),
  publicKey: ({ ctx }) => ctx.store.audit.publicKey(),
  export: ({ ctx, query }) => {
    const { format, ...rest } = query;
    return exportAudit(ctx, rest, format, Date.now());
  },
});
