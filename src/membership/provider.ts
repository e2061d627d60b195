import { AccountStatus } from '../../storage/membership/schema';
import type { ProfileQuota } from '../../storage/profiles/profiles';
import type { RequestContext } from '../routes/define';

/** How long LPA waits for the membership server before it treats it as unreachable. */
const FETCH_TIMEOUT_MS = 5000;

const LOCAL_STATUS: AccountStatus = { authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null };

/**
 * The account status. Local mode (no `LPA_ACCOUNT_URL`): nobody is signed in. Otherwise the
 * membership server is asked each time (`GET <url>/v1/account/status`, answering the spec's Account
 * status); its answer is kept until `verifiedUntil` and served with `offline: true` while the server
 * cannot be reached. Without a valid confirmation, nobody is signed in and `error` says why.
 */
export async function accountStatus(ctx: RequestContext): Promise<AccountStatus> {
  const url = ctx.config.accountUrl;
  if (url === null) return LOCAL_STATUS;
  let problem: string;
  try {
    const confirmed = await fetchStatus(url);
    await ctx.store.membership.save(url, confirmed, confirmed.verifiedUntil);
    return withTrueUsage(ctx, { ...confirmed, offline: false });
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const now = Date.now();
  const cached = await ctx.store.membership.read(url);
  if (cached?.status && cached.verified_until > now) {
    return withTrueUsage(ctx, { ...cached.status, offline: true, validForMs: cached.verified_until - now });
  }
  return {
    authenticated: false,
    offline: true,
    verifiedUntil: cached?.verified_until ?? 0,
    validForMs: 0,
    account: null,
    error: `The membership server could not confirm the account (${problem}) and no earlier confirmation is still valid.`,
  };
}

/** What profile creation must respect: null when nobody is signed in. */
export function profileQuota(status: AccountStatus): ProfileQuota | null {
  if (!status.authenticated || !status.account) return null;
  return { entitled: status.account.entitlements.profiles, limit: status.account.limits.profiles };
}

async function fetchStatus(base: string): Promise<AccountStatus> {
  const response = await fetch(`${base.replace(/\/+$/, '')}/v1/account/status`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`membership server answered HTTP ${response.status}`);
  }
  const parsed = AccountStatus.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new Error('membership server answered something that is not an account status');
  return parsed.data;
}

/** `usage.profiles` is what this store holds, whatever the server last counted. */
async function withTrueUsage(ctx: RequestContext, status: AccountStatus): Promise<AccountStatus> {
  const usage = status.account?.usage;
  if (!usage) return status;
  return { ...status, account: { ...status.account!, usage: { ...usage, profiles: await ctx.store.profiles.count() } } };
}
