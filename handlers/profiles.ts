import { z } from 'zod';
import { accountStatus, profileQuota } from '../src/membership/provider';
import { defineRoute } from '../src/routes/define';
import { queryBool, queryInt } from '../src/schemas/query';
import { PROFILE_SORTS } from '../storage/profiles/list';

/** Bounds the spec leaves open (README: Profiles). */
const PROFILE_BOUNDS = { name: 120, group: 120, tag: 64, tags: 50, notes: 10_000, q: 200, cursor: 2048, page: 1_000_000 } as const;

export const ProfileId = z.string().min(1).max(64);

const Tag = z.string().min(1).max(PROFILE_BOUNDS.tag);

const fields = {
  name: z.string().min(1).max(PROFILE_BOUNDS.name),
  group: z.string().min(1).max(PROFILE_BOUNDS.group).nullable(),
  tags: z.array(Tag).max(PROFILE_BOUNDS.tags).refine((t) => new Set(t).size === t.length, 'Tags must be unique'),
  pinned: z.boolean(),
  notes: z.string().max(PROFILE_BOUNDS.notes).nullable(),
};

const Profile = z
  .object({
    id: z.string(),
    no: z.int(),
    name: z.string(),
    group: z.string().nullable(),
    tags: z.array(z.string()),
    pinned: z.boolean(),
    notes: z.string().nullable(),
    created_at: z.int(),
    updated_at: z.int(),
  })
  .meta({ id: 'Profile' });

const ListQuery = z
  .object({
    page: queryInt(1, PROFILE_BOUNDS.page).optional(),
    limit: queryInt(1, 1000).default(50),
    cursor: z.string().min(1).max(PROFILE_BOUNDS.cursor).optional(),
    sort: z.enum(PROFILE_SORTS).default('no'),
    order: z.enum(['asc', 'desc']).default('asc'),
    pinned_first: queryBool().default(false),
    group: fields.group.unwrap().optional(),
    tag: Tag.optional(),
    pinned: queryBool().optional(),
    q: z.string().min(1).max(PROFILE_BOUNDS.q).optional(),
  })
  .strict()
  .superRefine((query, issues) => {
    if (query.cursor === undefined) return;
    if (query.pinned_first) issues.addIssue({ code: 'custom', path: ['pinned_first'], message: 'A cursor cannot be combined with pinned_first=true' });
    if (query.page !== undefined) issues.addIssue({ code: 'custom', path: ['page'], message: 'Use either page or cursor, not both' });
  });

const params = z.object({ id: ProfileId });

export const profileRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/profiles',
    tag: 'Profiles',
    summary: 'Create a profile; it gets the next serial number `no`',
    description: 'When an account is signed in, its `entitlements.profiles` and `limits.profiles` are enforced.',
    scopes: ['profiles:write'],
    body: z.object(fields).partial().required({ name: true }).strict(),
    status: 201,
    response: Profile,
    audit: 'profiles.create',
    errors: ['account.limit_reached', 'account.entitlement_missing'],
    handler: async ({ ctx, body, audit }) => ctx.store.profiles.create(audit, body, profileQuota(await accountStatus(ctx))),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/profiles',
    tag: 'Profiles',
    summary: 'List profiles by page or by keyset cursor',
    description:
      '`next_cursor` continues the traversal with the same sort, order and filters (it is bound to them) and is null at the end, ' +
      'and always with `pinned_first=true`, which pages by `page` only. `total` counts every profile that matches the filters.',
    scopes: ['profiles:read'],
    query: ListQuery,
    response: z.object({ items: z.array(Profile), next_cursor: z.string().nullable(), total: z.int() }),
    errors: ['request.cursor_invalid', 'request.cursor_mismatch'],
    handler: ({ ctx, query }) => ctx.store.profiles.list(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/profiles/:id',
    tag: 'Profiles',
    summary: 'One profile',
    scopes: ['profiles:read'],
    params,
    response: Profile,
    errors: ['resource.not_found'],
    handler: ({ ctx, params }) => ctx.store.profiles.get(params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/v1/profiles/:id',
    tag: 'Profiles',
    summary: 'Change the given fields of a profile',
    scopes: ['profiles:write'],
    params,
    body: z.object(fields).partial().strict(),
    response: Profile,
    audit: 'profiles.update',
    errors: ['resource.not_found'],
    handler: ({ ctx, params, body, audit }) => ctx.store.profiles.update(audit, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/profiles/:id',
    tag: 'Profiles',
    summary: 'Delete a profile and its platform accounts',
    scopes: ['profiles:write'],
    params,
    status: 204,
    audit: 'profiles.delete',
    errors: ['resource.not_found'],
    handler: ({ ctx, params, audit }) => ctx.store.profiles.delete(audit, params.id).then(() => undefined),
  }),
];
