import { ApiError } from '../shared/errors/api-error';

const WINDOW_MS = 60_000;
export const BLOCK_MS = 60_000;
/** Failed authentications per client and minute before it is blocked for BLOCK_MS. */
export const MAX_FAILURES = 20;
/** How long an address that authenticated with a valid token counts as known. */
const KNOWN_MS = 60 * 60_000;
/** Bounds memory: past this many addresses, the least recently touched one is forgotten. */
export const MAX_CLIENTS = 10_000;

interface Budget {
  /** Times of the failures inside the window, oldest first; never more than MAX_FAILURES. */
  times: number[];
  blockedUntil: number;
}

/** Counts one failure; the one that spends the budget blocks until `now + BLOCK_MS` and starts it afresh. */
function spend(budget: Budget, now: number): void {
  budget.times = budget.times.filter((t) => t > now - WINDOW_MS);
  budget.times.push(now);
  if (budget.times.length >= MAX_FAILURES) {
    budget.blockedUntil = now + BLOCK_MS;
    budget.times = [];
  }
}

/** Re-inserts `key` as the newest entry and drops the oldest past `max`: a bounded LRU map. */
export function touch<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/** The answer to a blocked client: 429 with the seconds it must wait. */
export function throttled(blockedUntil: number, now: number): ApiError {
  const retryAfter = Math.ceil((blockedUntil - now) / 1000);
  return new ApiError('auth.throttled', { retry_after_s: retryAfter }, undefined, {
    'retry-after': String(retryAfter),
  });
}

/** The addresses that authenticated with a valid token within the last hour (bounded, least recent forgotten first). */
export class KnownClients {
  private readonly known = new Map<string, number>();

  add(ip: string, now: number): void {
    touch(this.known, ip, now, MAX_CLIENTS);
  }

  has(ip: string, now: number): boolean {
    const at = this.known.get(ip);
    return at !== undefined && at > now - KNOWN_MS;
  }
}

/**
 * The throttle of failed authentications, per client address: the pipeline asks it before a token
 * is checked and tells it how each check ended; `isKnown` (a client that authenticated recently)
 * also decides how much of a client's api log is kept (./api-log-gate.ts).
 */
export interface Throttle {
  /** Throws `auth.throttled` (429, Retry-After) while the address is blocked. */
  assertNotBlocked(ip: string, now: number): void;
  /** A presented token that failed: a guess. */
  recordFailure(ip: string, now: number): void | Promise<void>;
  recordSuccess(ip: string, now: number): void;
  isKnown(ip: string, now: number): boolean;
}

/**
 * Twenty failed authentications within one minute from one client address block that address for
 * one minute, whatever token it sends next. The address is the connection's peer, never a header.
 *
 * Every peer of a loopback-only service is this machine, and a local process can bind any
 * 127.0.0.0/8 source address; so addresses that have not authenticated with a valid token within
 * the last hour also share ONE budget of the same size. Once that is spent, all of them are blocked
 * for a minute: rotating addresses buys no more guesses than one address has. An address that did
 * authenticate recently (the user's own clients) keeps only its own budget, so a rotating guesser
 * does not lock it out; guessing from it is bounded by that address's budget.
 */
export class AuthThrottle implements Throttle {
  private readonly clients = new Map<string, Budget>();
  private readonly known = new KnownClients();
  private readonly unknown: Budget = { times: [], blockedUntil: 0 };

  assertNotBlocked(ip: string, now: number): void {
    const own = this.clients.get(ip)?.blockedUntil ?? 0;
    const blockedUntil = this.isKnown(ip, now) ? own : Math.max(own, this.unknown.blockedUntil);
    if (blockedUntil > now) throw throttled(blockedUntil, now);
  }

  recordFailure(ip: string, now: number): void {
    const client = this.clients.get(ip) ?? { times: [], blockedUntil: 0 };
    spend(client, now);
    touch(this.clients, ip, client, MAX_CLIENTS);
    if (!this.isKnown(ip, now)) spend(this.unknown, now);
  }

  recordSuccess(ip: string, now: number): void {
    this.known.add(ip, now);
  }

  /** Whether the address authenticated with a valid token within the last hour. */
  isKnown(ip: string, now: number): boolean {
    return this.known.has(ip, now);
  }
}
