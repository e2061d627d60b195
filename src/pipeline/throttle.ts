import { ApiError } from '../errors/api-error';

const WINDOW_MS = 60_000;
const BLOCK_MS = 60_000;
const MAX_FAILURES = 20;
/** Bounds memory: past this many addresses, the least recently failing one is forgotten. */
const MAX_CLIENTS = 10_000;

interface ClientFailures {
  /** Times of the failures inside the window, oldest first; never more than MAX_FAILURES. */
  times: number[];
  blockedUntil: number;
}

/**
 * Twenty failed authentications within one minute from one client address block that address for
 * one minute, whatever token it sends next. The address is the connection's peer, never a header.
 */
export class AuthThrottle {
  private readonly clients = new Map<string, ClientFailures>();

  assertNotBlocked(ip: string, now: number): void {
    const client = this.clients.get(ip);
    if (!client || client.blockedUntil <= now) return;
    const retryAfter = Math.ceil((client.blockedUntil - now) / 1000);
    throw new ApiError('auth.throttled', { retry_after_s: retryAfter }, undefined, { 'retry-after': String(retryAfter) });
  }

  recordFailure(ip: string, now: number): void {
    const client = this.clients.get(ip) ?? { times: [], blockedUntil: 0 };
    this.clients.delete(ip);
    client.times = client.times.filter((t) => t > now - WINDOW_MS);
    client.times.push(now);
    if (client.times.length >= MAX_FAILURES) {
      client.blockedUntil = now + BLOCK_MS;
      client.times = [];
    }
    this.clients.set(ip, client);
    if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
  }
}
