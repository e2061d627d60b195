import { ApiError } from '../../src/shared/errors/api-error';
import type { AccountStatus } from '../../storage/membership/schema';
import type { ProfileQuota } from '../../storage/profiles/profiles';
import { type RunQuota, startDay } from '../../storage/runs/runs';
import type { RequestContext } from '../context';
import { knownServer, refresh, refreshDue, validConfirmation } from './verification';

const LOCAL_STATUS: AccountStatus = {
  authenticated: false,
  verifiedUntil: 0,
  validForMs: 0,
  account: null,
  error: null,
};

/**
 * The account status. Local mode (no `LPA_ACCOUNT_URL`): nobody is signed in. Otherwise, while the
 * last confirmation is valid (until its `verifiedUntil`) it is the answer at once, and a request
 * finding it older than REFRESH_AFTER_MS asks the server again in the background (one exchange at a
 * time). Only without a valid confirmation does a request wait for the server, at most
 * FETCH_TIMEOUT_MS; if that brings none, nobody is signed in and `error` says why.
 */
export async function accountStatus(ctx: RequestContext): Promise<AccountStatus> {
  return withTrueUsage(ctx, await confirmedStatus(ctx));
}

/** What profile creation must respect: null when nobody is signed in. Needs no store call of its own beside the creation's. */
export async function profileQuota(ctx: RequestContext): Promise<ProfileQuota | null> {
  const status = await confirmedStatus(ctx);
  if (!status.authenticated || !status.account) return null;
  return { entitled: status.account.entitlements.profiles, limit: status.account.limits.profiles };
}

/** A route that needs an entitlement of the signed-in account; in local mode (nobody signed in) every one is there. */
export async function assertEntitled(
  ctx: RequestContext,
  entitlement: keyof NonNullable<AccountStatus['account']>['entitlements'],
): Promise<void> {
  const status = await confirmedStatus(ctx);
  if (status.authenticated && status.account && !status.account.entitlements[entitlement])
    throw new ApiError('account.entitlement_missing', { entitlement });
}

/** The status as the server last confirmed it (its `usage.profiles` as the server counted). */
async function confirmedStatus(ctx: RequestContext): Promise<AccountStatus> {
  const url = ctx.config.accountUrl;
  if (url === null) return LOCAL_STATUS;
  const known = await knownServer(ctx, url);
  const now = Date.now();
  const valid = validConfirmation(known, now);
  if (valid) {
    if (refreshDue(known, now)) ctx.waitUntil(refresh(ctx, url, known));
    return { ...valid.status, offline: !known.online, validForMs: valid.verified_until - now };
  }
  const outcome = await refresh(ctx, url, known);
  if (outcome.ok) return { ...outcome.status, offline: false };
  return {
    authenticated: false,
    offline: true,
    verifiedUntil: known.confirmed?.verified_until ?? 0,
    validForMs: 0,
    account: null,
    error: `The membership server could not confirm the account (${outcome.problem}) and no earlier confirmation is still valid.`,
  };
}

/** What a start must respect: null when nobody is signed in. */
export async function runQuota(ctx: RequestContext): Promise<RunQuota | null> {
  const status = await confirmedStatus(ctx);
  if (!status.authenticated || !status.account) return null;
  const { runningProfiles, dailyStarts } = status.account.limits;
  return { runningProfiles, dailyStarts: dailyStarts ?? null };
}

/** `usage.profiles` and the day's starts are what this store holds, whatever the server last counted. */
async function withTrueUsage(ctx: RequestContext, status: AccountStatus): Promise<AccountStatus> {
  const usage = status.account?.usage;
  if (!usage) return status;
  const now = Date.now();
  const { day, resetAt } = startDay(now);
  const [profiles, startsToday] = await Promise.all([ctx.store.profiles.count(), ctx.store.runs.startsOn(now)]);
  return { ...status, account: { ...status.account!, usage: { ...usage, profiles, startsToday, day, resetAt } } };
}
