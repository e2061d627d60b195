import { ApiError } from '../../src/shared/errors/api-error';
import { utf8Bytes } from '../../src/shared/unicode';
import type { Audit } from '../audit/audit';
import { canonical } from '../audit/chain';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { flowRows, flowSlice, insertFlow, plainFlow, unknownFlowIds } from '../flows/flow-records';
import type { Globals } from '../globals/globals';
import type { ProfileAccounts } from '../profile-accounts/profile-accounts';
import type { Profiles } from '../profiles/profiles';
import { writeProxy } from '../profiles/proxy';
import type { Profile } from '../profiles/schema';
import { BROWSER_DEFAULTS } from '../../src/shared/schemas/browser-settings';
import type { Shares } from '../shares/shares';
import { first } from '../sql/sql';
import {
  TRANSFER_PAGE_BYTES,
  TRANSFER_PAGE_ITEMS,
  type ImportOutcome,
  type ImportRequest,
  type ImportResult,
  type ItemOf,
  type TransferItem,
  type TransferKind,
  type TransferPage,
  type TransferQuery,
} from './schema';

/**
 * How one kind of item is read from this store, found in it and written to it. `find` answers this
 * store's item of the same id in the very form a page carries (so that "the same" is one comparison),
 * `blocked` when the store cannot take the item (its profile or a flow it needs is missing, its name
 * is a deleted global's), or null when it can.
 */
interface KindTransfer<K extends TransferKind> {
  slice(offset: number, limit: number): ItemOf<K>[];
  find(item: ItemOf<K>): ItemOf<K> | { blocked: string } | null;
  /** Writes the item; an entry of its own (a profile's proxy) goes into the chain with `audit`. */
  insert(item: ItemOf<K>, audit: AuditContext): void;
  /** What of an item must match for "unchanged"; the whole item unless a kind says otherwise. */
  content?(item: ItemOf<K>): unknown;
}

/**
 * A profile as a push carries it: `no` is each store's own, and `running` and `running_on` say where
 * its browser runs now, which does not travel; its proxy goes with its password opened.
 */
function profileItem(profiles: Profiles, profile: Profile): ItemOf<'profiles'> {
  const { no: _no, running: _running, running_on: _on, proxy: _shown, ...fields } = profile;
  return { kind: 'profiles', ...fields, proxy: profiles.proxy(profile.id) };
}

/** The store id a push into this store came from, once one did (meta). */
const PUSHED_FROM = 'team_push.store_id';

const ENTITY: Record<TransferKind, string> = {
  profiles: 'profile',
  accounts: 'profile_account',
  globals: 'global',
  flows: 'flow',
  shares: 'share',
};

/** Rows are read this many at a time while a page fills. */
const READ_BATCH = 50;

export interface TransferFamilies {
  audit: Audit;
  profiles: Profiles;
  profileAccounts: ProfileAccounts;
  globals: Globals;
  shares: Shares;
}

/**
 * `lpa team push` (docs/teams.md#from-one-machine-to-a-team): a solo store gives its items page by
 * page with their secrets opened (`exportPage`, audited as a secret read), and a team takes them
 * under the same ids (`import`): each item it makes is written with its audit entry in a
 * transaction of its own; an item it already holds exactly so is left alone and writes nothing, one
 * it holds otherwise is a conflict and is never overwritten.
 */
export class Transfer {
  private readonly kinds: { [K in TransferKind]: KindTransfer<K> };

  constructor(
    private readonly ctx: StoreContext,
    private readonly families: TransferFamilies,
  ) {
    const { profiles, profileAccounts: accounts, globals, shares } = families;
    this.kinds = {
      profiles: {
        slice: (offset, limit) => profiles.slice(offset, limit).map((profile) => profileItem(profiles, profile)),
        find: (item) => {
          const found = profiles.find(item.id);
          return found && profileItem(profiles, found);
        },
        insert: ({ kind: _kind, id, created_at, updated_at, proxy, ...fields }, audit) => {
          const profile = profiles.insert(
            id,
            { ...fields, browser: fields.browser ?? BROWSER_DEFAULTS },
            created_at,
            updated_at,
          );
          if (proxy) writeProxy(ctx, audit, profile, proxy);
        },
        content: (item) => ({ ...item, browser: item.browser ?? BROWSER_DEFAULTS, proxy: item.proxy ?? null }),
      },
      accounts: {
        slice: (offset, limit) => accounts.slice(offset, limit).map((account) => ({ kind: 'accounts', ...account })),
        find: (item) => {
          const found = accounts.find(item.id);
          if (found) return { kind: 'accounts', ...found };
          return profiles.find(item.profile_id)
            ? null
            : { blocked: `its profile ${item.profile_id} is not in this store` };
        },
        insert: ({ kind: _kind, id, profile_id, created_at, updated_at, ...input }) =>
          void accounts.insert(profiles.require(profile_id), id, input, created_at, updated_at),
      },
      globals: {
        slice: (offset, limit) =>
          globals.slice(offset, limit).map(({ name, ...global }) => ({ kind: 'globals', id: name, ...global })),
        find: (item) => {
          const found = globals.find(item.id);
          if (found === 'deleted') return { blocked: 'a global of this name was deleted in this store' };
          if (!found) return null;
          const { name, ...global } = found;
          return { kind: 'globals', id: name, ...global };
        },
        insert: ({ id, revision, value, updated_at }) =>
          globals.put({ name: id, revision, bytes: utf8Bytes(value).length, updated_at }, value),
      },
      flows: {
        slice: (offset, limit) =>
          flowSlice(ctx, offset, limit).map((row) => ({ kind: 'flows', ...plainFlow(ctx, row) })),
        find: (item) => {
          const row = flowRows(ctx, [item.id])[0];
          if (row) return { kind: 'flows', ...plainFlow(ctx, row) };
          const missing = unknownFlowIds(ctx, item.dependencies);
          return missing.length > 0
            ? { blocked: `it needs flows that are not in this store: ${missing.join(', ')}` }
            : null;
        },
        insert: ({ kind: _kind, id, created_at, updated_at, ...flow }) =>
          void insertFlow(ctx, flow, id, { created_at, updated_at }),
      },
      shares: {
        slice: (offset, limit) => shares.slice(offset, limit).map((share) => ({ kind: 'shares', ...share })),
        find: (item) => {
          const found = shares.find(item.id);
          if (found === 'revoked') return { blocked: 'a share with this id was revoked in this store' };
          return found && { kind: 'shares', ...found };
        },
        insert: ({ kind: _kind, ...share }) => shares.insert(share),
        // `uses` counts the redemptions of the store that holds the share: a share redeemed in the team since is still the one pushed.
        content: ({ uses: _uses, ...share }) => share,
      },
    };
  }

  /** One page of one kind with its secrets opened, and this store's signed checkpoint after the page's own audit entry. */
  exportPage(audit: AuditContext, { kind, offset }: TransferQuery): TransferPage {
    const page = this.ctx.change(
      audit,
      () => this.page(this.kinds[kind] as unknown as KindTransfer<TransferKind>, offset),
      (read) => ({
        entity_type: 'store',
        entity_id: this.ctx.proofs.storeId(),
        details: { kind, offset, items: read.items.length },
      }),
    );
    return { checkpoint: this.families.audit.checkpoint(), ...page };
  }

  /** Takes a page of another store's items; refused whole when this store holds data that store did not push. */
  import(audit: AuditContext, { source, items }: ImportRequest): ImportResult {
    this.assertOpenTo(source.store_id);
    return { items: items.map((item) => ({ kind: item.kind, id: item.id, ...this.importOne(audit, source, item) })) };
  }

  private importOne(
    audit: AuditContext,
    source: ImportRequest['source'],
    item: TransferItem,
  ): { result: ImportOutcome; reason: string | null } {
    const kind = this.kinds[item.kind] as unknown as KindTransfer<TransferKind>;
    const found = kind.find(item);
    if (found === null) {
      this.ctx.change(
        audit,
        () => {
          kind.insert(item, audit);
          this.ctx.db.run('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', PUSHED_FROM, source.store_id);
        },
        () => ({ entity_type: ENTITY[item.kind], entity_id: item.id, details: { pushed_from: source } }),
      );
      return { result: 'created', reason: null };
    }
    if ('blocked' in found) return { result: 'conflict', reason: found.blocked };
    const content = kind.content ?? ((same: TransferItem) => same);
    if (canonical(content(found)) === canonical(content(item))) return { result: 'unchanged', reason: null };
    return { result: 'conflict', reason: 'this store holds it with other content, which is not overwritten' };
  }

  /** Items until the page holds TRANSFER_PAGE_ITEMS or about TRANSFER_PAGE_BYTES (always at least one). */
  private page(kind: KindTransfer<TransferKind>, offset: number): Omit<TransferPage, 'checkpoint'> {
    const items: TransferItem[] = [];
    let bytes = 0;
    for (let at = offset; ; ) {
      const batch = kind.slice(at, READ_BATCH);
      for (const item of batch) {
        const size = JSON.stringify(item).length;
        if (items.length === TRANSFER_PAGE_ITEMS || (items.length > 0 && bytes + size > TRANSFER_PAGE_BYTES))
          return { items, next_offset: at };
        items.push(item);
        bytes += size;
        at += 1;
      }
      if (batch.length < READ_BATCH) return { items, next_offset: null };
    }
  }

  /** A push goes into a store that holds nothing, or only what this same source pushed before (and what was made there since). */
  private assertOpenTo(storeId: string): void {
    const pushedFrom =
      first<{ value: string }>(this.ctx.db, 'SELECT value FROM meta WHERE key = ?', PUSHED_FROM)?.value ?? null;
    if (pushedFrom === storeId) return;
    const holds = first<{ n: number }>(
      this.ctx.db,
      `SELECT EXISTS (SELECT 1 FROM profiles) + EXISTS (SELECT 1 FROM automation_globals) + EXISTS (SELECT 1 FROM automation_flows)
         + EXISTS (SELECT 1 FROM automation_shares) AS n`,
    )!.n;
    if (pushedFrom !== null || holds > 0)
      throw new ApiError('team.not_empty', { store_id: storeId, pushed_from: pushedFrom });
  }
}
