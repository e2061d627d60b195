import { inject } from 'vitest';
import type { AccountStatus } from '../../storage/membership/schema';
import { serviceWith, type TestService } from './service';

export const membershipUrl = () => inject('membershipUrl');

/**
 * The service as `src/runtimes/workerd/worker.ts` builds it, on the same store, but configured with the test
 * membership server: the other test files keep running in local mode.
 */
export function signedInService(accountUrl = membershipUrl()): TestService {
  return serviceWith({ config: { accountUrl } });
}

/** Tells the membership server what to answer next, to drop every connection, or to answer none. */
export async function steer(
  mode: { answer: { status: number; body: unknown } } | { down: true } | { hang: true },
): Promise<void> {
  const res = await fetch(`${membershipUrl()}/control`, { method: 'POST', body: JSON.stringify(mode) });
  if (res.status !== 204) throw new Error(`membership server refused control: ${res.status}`);
}

/** What the membership server has seen: status requests in all, and how many it holds unanswered now. */
export async function serverCounts(): Promise<{ statusRequests: number; held: number }> {
  return (await (await fetch(`${membershipUrl()}/control`)).json()) as { statusRequests: number; held: number };
}

export async function statusRequests(): Promise<number> {
  return (await serverCounts()).statusRequests;
}

/** A signed-in account status as the membership server confirms it. */
export function confirmed(overrides: { profiles?: number | null; entitled?: boolean; verifiedUntil?: number } = {}) {
  const now = Date.now();
  const verifiedUntil = overrides.verifiedUntil ?? now + 3_600_000;
  return {
    authenticated: true,
    verifiedUntil,
    validForMs: verifiedUntil - now,
    account: {
      permissions: ['profiles'],
      membership: {
        plan: 'premium',
        trialEndsAt: null,
        premiumExpiresAt: now + 86_400_000,
        periodStartedAt: now - 86_400_000,
      },
      entitlements: {
        profiles: overrides.entitled ?? true,
        api: true,
        automation: true,
        synchronizer: false,
        teamSync: false,
      },
      limits: {
        profiles: overrides.profiles === undefined ? 100 : overrides.profiles,
        runningProfiles: 5,
        groups: null,
        members: 1,
        dailyStarts: null,
      },
      usage: { profiles: 9999, members: 1, startsToday: 0, day: '2026-11-21', resetAt: now + 3_600_000 },
      team: { id: 'team-1', name: 'Team', role: 'owner', ownerId: 'user-1' },
      isAdmin: false,
      notificationsUnread: 2,
      serverTime: now,
      validUntil: verifiedUntil,
    },
    error: null,
  } satisfies AccountStatus;
}
