import { z } from 'zod';
import { defineRoute } from '../src/routes/define';

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
  entitlements: z.object({ profiles: z.boolean(), api: z.boolean(), automation: z.boolean(), synchronizer: z.boolean(), teamSync: z.boolean() }),
  limits: z.object({ profiles: Limit, runningProfiles: Limit, groups: Limit, members: Limit.optional(), dailyStarts: Limit.optional() }),
  usage: z
    .object({ profiles: z.int().min(0), members: z.int().min(0), startsToday: z.int().min(0), day: z.string(), resetAt: z.number() })
    .optional(),
  team: z.object({ id: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'member']), ownerId: z.string() }).optional(),
  isAdmin: z.boolean(),
  notificationsUnread: z.int().min(0),
  serverTime: z.number(),
  validUntil: z.number(),
});

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

export const accountRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/account/status',
    tag: 'Account',
    summary: 'Server-confirmed membership status of the signed-in account',
    description: 'In local mode (no membership server configured) nobody is signed in: `authenticated` is false and `account` null.',
    response: AccountStatus,
    handler: () => ({ authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null }),
  }),
];
