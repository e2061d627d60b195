import { z } from 'zod';
import { Id, uniqueItems } from '../../src/shared/schemas/ids';
import { queryInt } from '../../src/shared/schemas/query';
import { AuditCheckpoint } from '../audit/schema';
import { FlowValueInput, NewFlow } from '../flows/schema';
import { GlobalName, GlobalWrite } from '../globals/schema';
import { PlatformAccountInput } from '../profile-accounts/schema';
import { Credential, ProfileFields } from '../profiles/schema';
import { ProxyUpstream } from '../../src/shared/schemas/proxy';
import { NewShare } from '../shares/schema';

/** What `lpa team push` copies, in the order it copies them: a profile before its accounts, a flow before the flows that need it. */
export const TRANSFER_KINDS = ['profiles', 'accounts', 'globals', 'flows', 'shares'] as const;
export const TransferKind = z.enum(TRANSFER_KINDS);
export type TransferKind = z.output<typeof TransferKind>;

const Time = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Vault or share-key ciphertext as the store keeps it; opaque outside the key's holder. */
const Sealed = (max: number) => z.string().min(1).max(max);

/** The largest sealed share bundle: 8 MiB of plaintext (storage/shares/shares.ts), sealed and in base64. */
const SEALED_BUNDLE_CHARS = 12 * 1024 * 1024;

/** A profile's proxy with its password in plaintext: sealed again by the receiving store. */
const ProxyItem = ProxyUpstream.extend({ username: Credential.nullable(), password: Credential.nullable() }).strict();

const ProfileItem = z
  .object({
    kind: z.literal('profiles'),
    id: Id,
    ...ProfileFields.shape,
    // A store from before the browser settings (migration 012) sends none: its profiles take the
    // defaults (./transfer.ts). Optional, not defaulted, so an export's item and a push's read alike.
    browser: ProfileFields.shape.browser.optional(),
    // A store from before proxies (migration 011) sends none.
    proxy: ProxyItem.nullable().optional(),
    created_at: Time,
    updated_at: Time,
  })
  .strict();

/** A platform account with its password and 2FA secret in plaintext: they are sealed again by the receiving store. */
const AccountItem = z
  .object({
    kind: z.literal('accounts'),
    id: Id,
    profile_id: Id,
    ...PlatformAccountInput.required().shape,
    created_at: Time,
    updated_at: Time,
  })
  .strict();

/** A global keeps its revision, so that a writer's `expected_revision` means the same in the team. */
const GlobalItem = z
  .object({
    kind: z.literal('globals'),
    id: GlobalName,
    revision: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
    value: GlobalWrite.shape.value,
    updated_at: Time,
  })
  .strict();

/** A flow with its protected values in plaintext (sealed again by the receiving store), every field of each value given. */
const FlowItem = z
  .object({
    kind: z.literal('flows'),
    id: Id,
    ...NewFlow.required().shape,
    values: uniqueItems(z.array(FlowValueInput.required()).max(1000), 'Value names must be unique', (v) => v.name),
    created_at: Time,
    updated_at: Time,
  })
  .strict();

/**
 * A share as its store keeps it: the bundle and the key check stay sealed under the share's own key,
 * which only the share code carries, so the code that was handed out redeems in the receiving store.
 */
const ShareItem = z
  .object({
    kind: z.literal('shares'),
    id: z.uuid(),
    name: NewShare.shape.name,
    created_at: Time,
    expires_at: Time,
    max_uses: NewShare.shape.max_uses,
    uses: z.int().min(0).max(NewShare.shape.max_uses.maxValue!),
    size: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    include_secrets: z.boolean(),
    key_check: Sealed(200),
    bundle: Sealed(SEALED_BUNDLE_CHARS),
  })
  .strict();

/** One item of a store, as `GET /api/v1/team/export` gives it and `POST /api/v1/import` takes it; `id` is a global's name. */
export const TransferItem = z
  .discriminatedUnion('kind', [ProfileItem, AccountItem, GlobalItem, FlowItem, ShareItem])
  .meta({ id: 'TransferItem' });
export type TransferItem = z.output<typeof TransferItem>;
export type ItemOf<K extends TransferKind> = Extract<TransferItem, { kind: K }>;

export const TransferQuery = z
  .object({
    kind: TransferKind,
    offset: queryInt(0)
      .default(0)
      .meta({ description: 'How many items of this kind earlier pages held: the `next_offset` of the page before.' }),
  })
  .strict();
export type TransferQuery = z.output<typeof TransferQuery>;

/** At most this many items, and about this many bytes of them, in one page: one page is one import request. */
export const TRANSFER_PAGE_ITEMS = 500;
export const TRANSFER_PAGE_BYTES = 512 * 1024;

export const TransferPage = z
  .object({
    /** This store's signed head now: the push names the store and the checkpoint it pushed from. */
    checkpoint: AuditCheckpoint,
    items: z.array(TransferItem),
    next_offset: z.int().nullable(),
  })
  .meta({ id: 'TransferPage' });
export type TransferPage = z.output<typeof TransferPage>;

export const ImportRequest = z
  .object({
    /** The pushing store's signed checkpoint (its `store_id` names the store); recorded with every item it creates. */
    source: AuditCheckpoint.extend({
      store_id: z.string().min(1).max(64),
      seq: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
      hash: z.string().max(128),
      ts: Time,
      key_id: z.string().max(128),
      signature: z.string().max(256),
    }).strict(),
    items: z.array(TransferItem).min(1).max(TRANSFER_PAGE_ITEMS),
  })
  .strict()
  .meta({ id: 'ImportRequest' });
export type ImportRequest = z.output<typeof ImportRequest>;

/** An item's outcome: made now, already there exactly so, or there (or blocked) otherwise, which is never overwritten. */
export const ImportOutcome = z.enum(['created', 'unchanged', 'conflict']);
export type ImportOutcome = z.output<typeof ImportOutcome>;

export const ImportResult = z
  .object({
    items: z.array(
      z.object({ kind: TransferKind, id: z.string(), result: ImportOutcome, reason: z.string().nullable() }),
    ),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.output<typeof ImportResult>;

/** The bodies of `POST /api/v1/import`: a page of items is at most ~TRANSFER_PAGE_BYTES plus its largest item (a share's sealed bundle). */
export const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;
