import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { Id } from '../src/shared/schemas/ids';
import { AccountInput, AccountPatch, PlatformAccount, PlatformAccountList, PlatformPassword, TotpCode } from '../storage/profile-accounts/schema';

const profileParams = z.object({ id: Id });
const accountParams = z.object({ id: Id, accountId: Id });
const BASE = '/api/v1/profiles/:id/accounts';
const VAULT = ['resource.not_found', 'vault.locked', 'vault.unreadable'] as const;

export const profileAccountRoutes = [
  defineRoute({
    method: 'GET',
    path: BASE,
    tag: 'Platform accounts',
    summary: 'Platform accounts of a profile; passwords and 2FA secrets show only as password_set/totp_set',
    scopes: ['profiles:read'],
    params: profileParams,
    response: PlatformAccountList,
    errors: ['resource.not_found'],
    handler: async ({ ctx, params }) => ({ items: await ctx.store.profileAccounts.list(params.id) }),
  }),
  defineRoute({
    method: 'POST',
    path: BASE,
    tag: 'Platform accounts',
    summary: 'Add a platform account; a password or 2FA secret is sealed by the vault',
    scopes: ['profiles:write'],
    params: profileParams,
    body: AccountInput,
    status: 201,
    response: PlatformAccount,
    audit: 'profile_accounts.create',
    errors: [...VAULT, 'profile_accounts.limit_reached'],
    handler: ({ ctx, params, body, audit }) => ctx.store.profileAccounts.create(audit, params.id, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: `${BASE}/:accountId`,
    tag: 'Platform accounts',
    summary: 'Change the given fields; null for password or totp_secret removes it',
    scopes: ['profiles:write'],
    params: accountParams,
    body: AccountPatch,
    response: PlatformAccount,
    audit: 'profile_accounts.update',
    errors: VAULT,
    handler: ({ ctx, params, body, audit }) => ctx.store.profileAccounts.update(audit, params.id, params.accountId, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${BASE}/:accountId`,
    tag: 'Platform accounts',
    summary: 'Remove a platform account',
    scopes: ['profiles:write'],
    params: accountParams,
    status: 204,
    audit: 'profile_accounts.delete',
    errors: ['resource.not_found'],
    handler: ({ ctx, params, audit }) => ctx.store.profileAccounts.delete(audit, params.id, params.accountId).then(() => undefined),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/:accountId/password`,
    tag: 'Platform accounts',
    summary: 'The plaintext password; every read is audited (404 when none is set)',
    scopes: ['secrets:read'],
    params: accountParams,
    response: PlatformPassword,
    audit: 'profile_accounts.password_read',
    errors: VAULT,
    handler: ({ ctx, params, audit }) => ctx.store.profileAccounts.password(audit, params.id, params.accountId),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/:accountId/totp`,
    tag: 'Platform accounts',
    summary: 'The current RFC 6238 code of the 2FA secret and the seconds it stays valid; every read is audited',
    scopes: ['secrets:totp'],
    params: accountParams,
    response: TotpCode,
    audit: 'profile_accounts.totp_read',
    errors: VAULT,
    handler: ({ ctx, params, audit }) => ctx.store.profileAccounts.totp(audit, params.id, params.accountId),
  }),
];
