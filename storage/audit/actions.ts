import { z } from 'zod';

/** The filter categories of the spec. */
export const AuditCategory = z.enum(['account', 'profile', 'startup', 'proxy', 'team']);
export type AuditCategory = z.output<typeof AuditCategory>;

/**
 * Every audit action, with the filter category it belongs to. Actions are dotted and stable; the
 * page docs/reference/audit-actions.md is generated from here (npm run docs).
 */

export const AUDIT_ACTIONS = {
  'service.start': { category: 'startup', description: 'The service started and opened its store.' },
  'auth.denied': {
    category: 'account',
    description: 'A request was refused: bad or missing token, missing scope, or throttled.',
  },
  'tokens.create': { category: 'account', description: 'An API token was issued.' },
  'tokens.revoke': { category: 'account', description: 'An API token was revoked.' },
  'settings.logs_write': { category: 'account', description: 'Log retention settings were changed.' },
  // Automation (the synchronizer too) has no filter category of its own; its entries file under 'account' (docs/automation.md#audit).
  'globals.write': { category: 'account', description: 'An automation global was created or changed.' },
  'globals.delete': { category: 'account', description: 'An automation global was deleted.' },
  'globals.read': { category: 'account', description: 'The plaintext value of an automation global was read.' },
  'flows.create': { category: 'account', description: 'An automation flow was created.' },
  'flows.update': {
    category: 'account',
    description: 'An automation flow was changed (the names of the fields given).',
  },
  'flows.delete': { category: 'account', description: 'An automation flow was deleted.' },
  'flow_runs.start': { category: 'account', description: 'A flow run (a job) was started on some profiles.' },
  'flow_runs.cancel': { category: 'account', description: 'A running flow job was asked to stop.' },
  'flow_runs.profile_end': {
    category: 'profile',
    description: "One profile's run of a flow job ended: succeeded, failed (with the error code) or cancelled.",
  },
  'shares.create': { category: 'account', description: 'A share of automation flows was created.' },
  'shares.revoke': { category: 'account', description: 'A share was revoked.' },
  'shares.redeem': { category: 'account', description: 'A share code was redeemed for an import preview.' },
  'shares.import': { category: 'account', description: 'Flows of a redeemed share were imported.' },
  'files.write': { category: 'account', description: 'An automation file was written.' },
  'settings.audit_write': { category: 'account', description: 'The audit retention was changed.' },
  'audit.purge': { category: 'account', description: 'The daily job deleted audit entries older than the retention.' },
  'profiles.create': { category: 'profile', description: 'A profile was created.' },
  'profiles.update': { category: 'profile', description: 'A profile was changed.' },
  'profiles.delete': { category: 'profile', description: 'A profile was deleted, and its platform accounts with it.' },
  'profiles.cookies_export': {
    category: 'profile',
    description: "A profile's cookies were read out (their count, format and domain filter; never their values).",
  },
  'profiles.cookies_import': {
    category: 'profile',
    description: 'Cookies were written into a profile (their counts, format and mode; never their values).',
  },
  'profile_accounts.create': { category: 'profile', description: 'A platform account was added to a profile.' },
  'profile_accounts.update': { category: 'profile', description: 'A platform account of a profile was changed.' },
  'profile_accounts.delete': { category: 'profile', description: 'A platform account was removed from a profile.' },
  'profile_accounts.password_read': {
    category: 'profile',
    description: 'The plaintext password of a platform account was read.',
  },
  'profile_accounts.totp_read': {
    category: 'profile',
    description: 'A 2FA code of a platform account was generated and read.',
  },
  'profiles.proxy_write': {
    category: 'proxy',
    description: "A profile's proxy was set, changed or removed (never its password).",
  },
  'profiles.proxy_check': {
    category: 'proxy',
    description: "A page was fetched through a profile's proxy to check it (`POST /api/v1/profiles/{id}/proxy/check`).",
  },
  'runs.start': {
    category: 'startup',
    description:
      "A profile's browser was started and answered DevTools (a start that failed is this action's failure).",
  },
  'runs.stop': { category: 'startup', description: "A profile's browser was stopped." },
  'runs.end': {
    category: 'startup',
    description:
      "A profile's browser ended without a stop: it crashed, a DevTools client closed it, or the service stopped without closing it.",
  },
  'synchronizer.start': {
    category: 'account',
    description:
      "The synchronizer started mirroring a source profile's input on followers (the browsers it started are each a `runs.start`).",
  },
  'synchronizer.stop': { category: 'account', description: 'The synchronizer was stopped.' },
  'synchronizer.followers_remove': {
    category: 'account',
    description: 'A follower was taken out of the synchronizer.',
  },
  'runs.lease_grant': {
    category: 'team',
    description: "A machine took a team profile's lease to run its browser (docs/teams.md#runs-across-machines).",
  },
  'runs.lease_release': {
    category: 'team',
    description: "A machine released a team profile's lease: its browser stopped, crashed or was lost.",
  },
  'runs.bundle_upload': {
    category: 'team',
    description:
      "A machine's run of a team profile uploaded the profile's browser data as it ended; its hash, size and fencing number are in details (docs/teams.md#what-travels).",
  },
  'runs.lease_break': {
    category: 'team',
    description: "An owner or admin broke a team profile's lease; the machine that held it stops its browser.",
  },
  'members.write': { category: 'team', description: 'A member was added to the team, or given another role.' },
  'members.delete': { category: 'team', description: 'A member was removed from the team.' },
  'team.export': {
    category: 'team',
    description: 'A page of this store was read for `lpa team push`, its secrets in plaintext.',
  },
  'team.import': {
    category: 'team',
    description:
      'An item of a solo store was pushed into the team (`lpa team push`), with the store id and its signed checkpoint.',
  },
} as const satisfies Record<string, { category: AuditCategory; description: string }>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function categoryOf(action: string): AuditCategory {
  return (AUDIT_ACTIONS as Record<string, { category: AuditCategory }>)[action]?.category ?? 'account';
}
