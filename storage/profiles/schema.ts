import { z } from 'zod';
import { uniqueItems } from '../../src/shared/schemas/ids';
import { ProxyUpstream } from '../../src/shared/schemas/proxy';
import { BROWSER_DEFAULTS, BrowserSettings, BrowserSettingsPatch } from '../../src/shared/schemas/browser-settings';
import { queryBool, queryInt } from '../../src/shared/schemas/query';

/** Bounds the spec leaves open (docs/profiles.md#profiles). */
export const PROFILE_BOUNDS = {
  name: 120,
  group: 120,
  tag: 64,
  tags: 50,
  notes: 10_000,
  q: 200,
  cursor: 2048,
  page: 1_000_000,
} as const;

export const PROFILE_SORTS = ['no', 'name', 'created_at', 'updated_at'] as const;
export type ProfileSort = (typeof PROFILE_SORTS)[number];

const Tag = z.string().min(1).max(PROFILE_BOUNDS.tag);

/**
 * The fields a client sets. A profile holds exactly these besides its id, `no` and times: the create
 * and change bodies, the record and its row (./columns.ts) all follow this object.
 */
export const ProfileFields = z.object({
  name: z.string().min(1).max(PROFILE_BOUNDS.name),
  group: z.string().min(1).max(PROFILE_BOUNDS.group).nullable(),
  tags: uniqueItems(z.array(Tag).max(PROFILE_BOUNDS.tags), 'Tags must be unique'),
  pinned: z.boolean(),
  notes: z.string().max(PROFILE_BOUNDS.notes).nullable(),
  browser: BrowserSettings,
});
export type ProfileFields = z.output<typeof ProfileFields>;

/** What a new profile holds for a field it was not given; any other field it was not given is null. */
export const PROFILE_DEFAULTS: Partial<ProfileFields> = { tags: [], pinned: false, browser: BROWSER_DEFAULTS };

/** The bounds of a proxy's credentials: 255, as SOCKS5 carries them (RFC 1929). */
export const Credential = z.string().min(1).max(255);

/**
 * A profile's proxy as a client writes it (docs/proxies.md). `password` is write-only: absent keeps
 * the stored one, null removes it. SOCKS4 carries a user id and no password, so a password with it is refused.
 */
export const ProxyInput = z
  .object({
    type: ProxyUpstream.shape.type,
    host: ProxyUpstream.shape.host,
    port: ProxyUpstream.shape.port,
    username: Credential.nullable().default(null),
    password: Credential.nullable()
      .optional()
      .meta({ description: 'Write-only, sealed in the vault; absent keeps the stored one, null removes it.' }),
  })
  .strict()
  .refine((proxy) => proxy.type !== 'socks4' || !proxy.password, {
    path: ['password'],
    message: 'SOCKS4 has no password (only a user id): use socks5 for a proxy that asks for one',
  })
  .meta({ id: 'ProxyInput' });
export type ProxyInput = z.output<typeof ProxyInput>;

/** A profile's proxy as reads and listings show it: whether a password is stored, never its value. */
export const ProxySettings = z
  .object({
    type: ProxyUpstream.shape.type,
    host: ProxyUpstream.shape.host,
    port: ProxyUpstream.shape.port,
    username: z.string().nullable(),
    password_set: z.boolean(),
  })
  .meta({ id: 'ProxySettings' });
export type ProxySettings = z.output<typeof ProxySettings>;

/** `proxy` of a create or a change: the whole proxy, or null for none (kept as its own columns, ./proxy.ts). */
const ProxyField = { proxy: ProxyInput.nullable().optional() };

/** `browser` is given in part: a setting left out keeps its value (a new profile's default). */
const BrowserField = {
  browser: BrowserSettingsPatch.optional().meta({
    description: 'The browser settings to set; each one left out keeps its value (docs/runs.md#browser-settings).',
  }),
};

export const ProfileInput = ProfileFields.partial()
  .required({ name: true })
  .extend(ProxyField)
  .extend(BrowserField)
  .strict()
  .meta({ id: 'ProfileInput' });
export type ProfileInput = z.output<typeof ProfileInput>;

export const ProfilePatch = ProfileFields.partial()
  .extend(ProxyField)
  .extend(BrowserField)
  .strict()
  .meta({ id: 'ProfilePatch' });
export type ProfilePatch = z.output<typeof ProfilePatch>;

export const Profile = z
  .object({
    id: z.string(),
    no: z.int(),
    ...ProfileFields.shape,
    proxy: ProxySettings.nullable().meta({
      description: 'The proxy every start of its browser goes through (docs/proxies.md).',
    }),
    created_at: z.int(),
    updated_at: z.int(),
    running: z.boolean().meta({
      description:
        "Whether the profile's browser runs now: on this machine (docs/runs.md), or for a team's profile on any machine of the team (a live lease).",
    }),
    running_on: z
      .object({
        machine_id: z.string().nullable(),
        machine_label: z.string(),
        who: z.string(),
        since: z.int(),
      })
      .nullable()
      .meta({
        description:
          "A team's profile: the machine whose run holds its lease, who started it and since when (docs/teams.md#runs-across-machines); null when none runs it, and always on a machine's own profiles.",
      }),
  })
  .meta({ id: 'Profile' });
export type Profile = z.output<typeof Profile>;

export const ProfileQuery = z
  .object({
    page: queryInt(1, PROFILE_BOUNDS.page)
      .optional()
      .meta({ description: 'The page to answer (1 is the first); not with `cursor`.' }),
    limit: queryInt(1, 1000).default(50),
    cursor: z.string().min(1).max(PROFILE_BOUNDS.cursor).optional().meta({
      description:
        'A `next_cursor` of an earlier answer, with the same sort, order and filters; not with `page` nor `pinned_first=true`.',
    }),
    sort: z.enum(PROFILE_SORTS).default('no'),
    order: z.enum(['asc', 'desc']).default('asc'),
    pinned_first: queryBool()
      .default(false)
      .meta({ description: 'Pinned profiles first; pages by `page` only (no `cursor`).' }),
    group: ProfileFields.shape.group.unwrap().optional(),
    tag: Tag.optional(),
    pinned: queryBool().optional(),
    running: queryBool()
      .optional()
      .meta({ description: 'Only profiles whose browser runs (true) or does not (false).' }),
    q: z.string().min(1).max(PROFILE_BOUNDS.q).optional(),
  })
  .strict()
  .superRefine((query, issues) => {
    if (query.cursor === undefined) return;
    if (query.pinned_first)
      issues.addIssue({
        code: 'custom',
        path: ['pinned_first'],
        message: 'A cursor cannot be combined with pinned_first=true',
      });
    if (query.page !== undefined)
      issues.addIssue({ code: 'custom', path: ['page'], message: 'Use either page or cursor, not both' });
  });
export type ProfileQuery = z.output<typeof ProfileQuery>;

/** One page of a listing, the cursor after it (null when done) and the count of all matches. */
export const ProfilePage = z
  .object({ items: z.array(Profile), next_cursor: z.string().nullable(), total: z.int() })
  .meta({ id: 'ProfilePage' });
export type ProfilePage = z.output<typeof ProfilePage>;
