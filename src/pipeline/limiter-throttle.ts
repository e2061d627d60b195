import { BLOCK_MS, KnownClients, MAX_CLIENTS, throttled, touch, type Throttle } from './throttle';

/**
 * Spends one failed authentication of a client from a shared budget; false once the budget is spent.
 * On Cloudflare, the Rate Limiting binding (src/runtimes/cloudflare/team-worker.ts), whose counts hold
 * across the Worker's isolates.
 */
export type SpendFailure = (client: string) => Promise<boolean>;

/**
 * A throttle whose failures are counted elsewhere (a service on the internet runs in many isolates,
 * so a count in one isolate's memory bounds nothing): each failure spends from the shared budget,
 * and the failure that finds it spent blocks the client here for BLOCK_MS. Every address counts on
 * its own: behind Cloudflare it is the client's true address (CF-Connecting-IP), not one of many a
 * local process can bind, so there is no shared budget for unknown addresses as the local throttle has.
 */
export class LimiterThrottle implements Throttle {
  private readonly blocked = new Map<string, number>();
  private readonly known = new KnownClients();

  constructor(private readonly spend: SpendFailure) {}

  assertNotBlocked(ip: string, now: number): void {
    const blockedUntil = this.blocked.get(ip) ?? 0;
    if (blockedUntil > now) throw throttled(blockedUntil, now);
  }

  async recordFailure(ip: string, now: number): Promise<void> {
    if (!(await this.spend(ip))) touch(this.blocked, ip, now + BLOCK_MS, MAX_CLIENTS);
  }

  recordSuccess(ip: string, now: number): void {
    this.known.add(ip, now);
  }

  isKnown(ip: string, now: number): boolean {
    return this.known.has(ip, now);
  }
}
