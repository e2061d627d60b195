import { globals } from '../src/contracts/globals';
import { implement } from './implement';

export const globalRoutes = implement(globals, {
  list: async ({ ctx }) => ({ items: await ctx.store.globals.list() }),
  read: ({ ctx, params, audit }) => ctx.store.globals.read(audit, params.name),
  write: ({ ctx, params, body, audit }) => ctx.store.globals.write(audit, params.name, body),
  delete: async ({ ctx, params, query, audit }) => {
    await ctx.store.globals.delete(audit, params.name, query);
    return { ok: true as const };
  },
});
