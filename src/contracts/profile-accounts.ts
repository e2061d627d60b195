import { Id, IdParams } from '../shared/schemas/ids';
import {
  PlatformAccount,
  PlatformAccountInput,
  PlatformAccountList,
  PlatformAccountPatch,
  PlatformPassword,
  TotpCode,
} from '../../storage/profile-accounts/schema';
import { defineContract } from './define';

/** A profile's account: the profile's `id` and the account's `accountId`. */
const AccountParams = IdParams.extend({ accountId: Id });
const BASE = '/api/v1/profiles/:id/accounts';
const VAULT = ['resource.not_found', 'vault.locked', 'vault.unreadable'] as const;

export const profileAccounts = {
  list: defineContract({
    method: 'GET',
    path: BASE,
    home: 'team',
    tag: 'Platform accounts',
    summary: 'Platform accounts of a profile; passwords and 2FA secrets show only as password_set/totp_set',
    scopes: ['profiles:read'],
    params: IdParams,
    response: PlatformAccountList,
    errors: ['resource.not_found'],
  }),
  create: defineContract({
    method: 'POST',
    path: BASE,
    home: 'team',
    tag: 'Platform accounts',
    summary: 'Add a platform account; a password or 2FA secret is sealed by the vault',
    scopes: ['profiles:write'],
    params: IdParams,
    body: PlatformAccountInput,
    status: 201,
    response: PlatformAccount,
    audit: 'profile_accounts.create',
    errors: [...VAULT, 'profile_accounts.limit_reached'],
  }),
  update: defineContract({
    method: 'PATCH',
    path: `${BASE}/:accountId`,
    home: 'team',
    tag: 'Platform accounts',
    summary: 'Change the given fields; null for password or totp_secret removes it',
    scopes: ['profiles:write'],
    params: AccountParams,
    body: PlatformAccountPatch,
    response: PlatformAccount,
    audit: 'profile_accounts.update',
    errors: VAULT,
  }),
  delete: defineContract({
    method: 'DELETE',
    path: `${BASE}/:accountId`,
    home: 'team',
    tag: 'Platform accounts',
    summary: 'Remove a platform account',
    scopes: ['profiles:write'],
    params: AccountParams,
    status: 204,
    audit: 'profile_accounts.delete',
    errors: ['resource.not_found'],
  }),
  password: defineContract({
    method: 'GET',
    path: `${BASE}/:accountId/password`,
    home: 'team',
    tag: 'Platform accounts',
    summary: 'The plaintext password; every read is audited (404 when none is set)',
    scopes: ['secrets:read'],
    params: AccountParams,
    response: PlatformPassword,
    audit: 'profile_accounts.password_read',
    errors: VAULT,
  }),
  totp: defineContract({
    method: 'GET',
    path: `${BASE}/:accountId/totp`,
    home: 'team',
    tag: 'Platform accounts',
    summary: 'The current RFC 6238 code of the 2FA secret and the seconds it stays valid; every read is audited',
    scopes: ['secrets:totp'],
    params: AccountParams,
    response: TotpCode,
    audit: 'profile_accounts.totp_read',
    errors: VAULT,
  }),
};
