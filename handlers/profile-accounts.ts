import { profileAccounts } from '../src/contracts/profile-accounts';
import { implement } from './implement';

export const profileAccountRoutes = implement(profileAccounts, {
  list: async ({ ctx, params }) => ({ items: await ctx.store.profileAccounts.list(params.id) }),
  create: ({ ctx, params, body, audit }) => ctx.store.profileAccounts.create(audit, params.id, body),
  update: ({ ctx, params, body, audit }) => ctx.store.profileAccounts.update(audit, params.id, params.accountId, body),
  delete: ({ ctx, params, audit }) =>
    ctx.store.profileAccounts.delete(audit, params.id, params.accountId).then(() => undefined),
  password: ({ ctx, params, audit }) => ctx.store.profileAccounts.password(audit, params.id, params.accountId),
  totp: ({ ctx, params, audit }) => ctx.store.profileAccounts.totp(audit, params.id, params.accountId),
});
