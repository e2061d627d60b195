import { push } from '../src/contracts/push';
import { implement } from './implement';

/** The team's side of `lpa team push`, for the team service only (src/contracts/push.ts). */
export const pushRoutes = implement(push, {
  import: ({ ctx, body, audit }) => ctx.store.transfer.import(audit, body),
});
