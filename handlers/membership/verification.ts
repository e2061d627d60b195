import type { AccountStatus, CachedAccountStatus } from '../../storage/membership/schema';
import { perStore } from '../../src/shared/store-memory';
import type { RequestContext } from '../context';
import { fetchStatus, FETCH_TIMEOUT_MS, TIMED_OUT } from './exchange';

/** How old the last exchange may be before a request that is served from the cache refreshes it in the background. */
export const REFRESH_AFTER_MS = 30_000;

export type Outcome = { ok: true; status: AccountStatus } | { ok: false; problem: string };

/** What a running service knows of its membership server. */
interface Known {
  /** The newest confirmation: the store's copy when first needed, then every valid answer. */
  confirmed: CachedAccountStatus | null;
  /** Whether the last exchange that ended confirmed `confirmed`; false before any has ended. */
  online: boolean;
  /** When the last exchange began; 0 when none has. */
  askedAt: number;
  /** The exchange under way, if any: there is never more than one. */
  refreshing: Promise<Outcome> | null;
}

/** Per store (its object's memory), so that a restart starts from the store's copy. */
const knownServers = perStore(() => new Map<string, Known>());

/** What the service knows of the server at `url`, the store's saved confirmation read in on first use. */
export async function knownServer(ctx: RequestContext, url: string): Promise<Known> {
  const servers = knownServers.of(ctx.memory);
  let known = servers.get(url);
  if (!known) {
    const saved = await ctx.store.membership.read(url);
    known = servers.get(url) ?? { confirmed: saved, online: false, askedAt: 0, refreshing: null };
    servers.set(url, known);
  }
  return known;
}

/** The confirmation still valid at `now`, if there is one. */
export function validConfirmation(known: Known, now: number): { status: AccountStatus; verified_until: number } | null {
  const confirmed = known.confirmed;
  return confirmed?.status && confirmed.verified_until > now
    ? { status: confirmed.status, verified_until: confirmed.verified_until }
    : null;
}

/** Whether a request served from a valid confirmation should start a refresh (none under way, the last one old). */
export function refreshDue(known: Known, now: number): boolean {
  return !inFlight(known, now) && now - known.askedAt >= REFRESH_AFTER_MS;
}

/**
 * The exchange under way, or a new one. Its outcome updates what is known (and the store's copy);
 * it never rejects. A caller waits for it at most FETCH_TIMEOUT_MS from when it began, even should
 * the exchange itself never settle (workerd cancels the I/O of a request whose client went away).
 */
export function refresh(ctx: RequestContext, url: string, known: Known): Promise<Outcome> {
  const now = Date.now();
  if (!inFlight(known, now)) {
    known.askedAt = now;
    const started = exchangeOnce(ctx, url, known);
    known.refreshing = started;
    void started.finally(() => {
      if (known.refreshing === started) known.refreshing = null;
    });
  }
  const exchange = known.refreshing!;
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve({ ok: false, problem: TIMED_OUT }),
      Math.max(0, known.askedAt + FETCH_TIMEOUT_MS - now),
    );
    void exchange.then((outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
  });
}

/** An exchange counts as under way until its timeout has passed; one that outlives it is given up. */
function inFlight(known: Known, now: number): boolean {
  return known.refreshing !== null && now - known.askedAt <= FETCH_TIMEOUT_MS;
}

async function exchangeOnce(ctx: RequestContext, url: string, known: Known): Promise<Outcome> {
  let status: AccountStatus;
  try {
    status = await fetchStatus(url);
  } catch (error) {
    known.online = false;
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
  known.confirmed = { status, verified_until: status.verifiedUntil };
  known.online = true;
  await ctx.store.membership.save(url, status, status.verifiedUntil).catch((error: unknown) => {
    console.error('could not save the account status:', error);
  });
  return { ok: true, status };
}
