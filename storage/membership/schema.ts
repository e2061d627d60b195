import { z } from 'zod';

const Membership = z.object({
  plan: z.enum(['free', 'trial', 'premium']),
  trialEndsAt: z.number().nullable(),
  premiumExpiresAt: z.number().nullable(),
  periodStartedAt: z.number().nullable().optional(),
});

const Limit = z.int().min(0).nullable();

const Account = z.object({
  permissions: z.array(z.string()).optional(),
  membership: Membership,
  entitlements: z.object({
    profiles: z.boolean(),
    api: z.boolean(),
    automation: z.boolean(),
    synchronizer: z.boolean(),
    teamSync: z.boolean(),
  }),
  limits: z.object({
    profiles: Limit,
    runningProfiles: Limit,
    groups: Limit,
    members: Limit.optional(),
    dailyStarts: Limit.optional(),
  }),
  usage: z
    .object({
      profiles: z.int().min(0),
      members: z.int().min(0),
      startsToday: z.int().min(0),
      day: z.string(),
      resetAt: z.number(),
    })
    .optional(),
  team: z
    .object({ id: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'member']), ownerId: z.string() })
    .optional(),
  isAdmin: z.boolean(),
  notificationsUnread: z.int().min(0),
  serverTime: z.number(),
  validUntil: z.number(),
});

/** The spec's Account status: what GET /api/v1/account/status answers and what the membership server sends. */
export const AccountStatus = z
  .object({
    authenticated: z.boolean(),
    offline: z.boolean().optional(),
    verifiedUntil: z.number(),
    validForMs: z.number(),
    account: Account.nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'AccountStatus' });

export type AccountStatus = z.output<typeof AccountStatus>;

/** The last confirmation saved; `status` is null when what was saved is not an account status (an older version's). */
export const CachedAccountStatus = z.object({ status: AccountStatus.nullable(), verified_until: z.number() });
export type CachedAccountStatus = z.output<typeof CachedAccountStatus>;
