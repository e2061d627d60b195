import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { ApiError } from '../../src/shared/errors/api-error';
import type { AuditContext } from '../audit/entry';
import { deleteChunks, getChunks, putChunks } from '../chunks';
import type { StoreContext } from '../context';
import { revoke } from '../revoke';
import { assertFlowsExist, bundleFlow, flowRows, insertFlow } from '../flows/flow-records';
import type { BundledFlow } from '../flows/schema';
import { first } from '../sql/sql';
import { Vault } from '../vault';
import type {
  ShareImportRequest,
  ShareImportResult,
  NewShare,
  PreviewItem,
  ShareRedeemPreview,
  Share,
  ShareBundle,
  ShareWithCode,
} from './schema';
import type { ItemOf } from '../transfer/schema';
import { encodeShareCode, parseShareCode, SHARE_KEY_BYTES } from './share-code';

/** A share as `lpa team push` carries it: every column, and the bundle still sealed under the share's key. */
export type SealedShare = Omit<ItemOf<'shares'>, 'kind'>;

type ShareRow = Share & { created_at: number; include_secrets: number; key_check: string; revoked_at: number | null };

interface TicketRow {
  ticket: string;
  share_id: string;
  key_sealed: string | null;
  expires_at: number;
  used_at: number | null;
}

/** The largest plaintext bundle a share may hold; it is built and encrypted in the store's memory. */
export const MAX_BUNDLE_BYTES = 8 * 1024 * 1024;
/** How long a redeem's ticket can be used to import. */
export const TICKET_LIFETIME_MS = 30 * 60_000;
/** Expired tickets are kept this long (so a late import hears "expired"), then forgotten. */
const TICKET_MEMORY_MS = 24 * 60 * 60_000;

const owner = (id: string) => `share:${id}`;
const bundleAad = (id: string) => `share:${id}:bundle`;
const checkAad = (id: string) => `share:${id}:key-check`;
const ticketAad = (ticket: string) => `share-ticket:${ticket}:key`;

const SHARE_COLUMNS = 'id, name, expires_at, max_uses, uses, size, sha256';

/**
 * Shares of automation flows. The bundle is encrypted under a fresh key that only the share code
 * carries; the store keeps the ciphertext and a key check (an empty plaintext sealed under the same
 * key), so a code is verified before the share's state is disclosed. The share key is used
 * through a `Vault` of its own: the same AES-256-GCM sealing, under a key the store does not keep.
 */
export class Shares {
  constructor(private readonly ctx: StoreContext) {}

  list(): Share[] {
    return this.ctx.db.all<Share>(
      `SELECT ${SHARE_COLUMNS} FROM automation_shares WHERE revoked_at IS NULL ORDER BY created_at, id`,
    );
  }

  create(audit: AuditContext, input: NewShare): ShareWithCode {
    const id = crypto.randomUUID();
    const key = crypto.getRandomValues(new Uint8Array(SHARE_KEY_BYTES));
    const share = this.ctx.change(
      audit,
      () => {
        assertFlowsExist(this.ctx, input.ids);
        const rows = flowRows(this.ctx, input.ids);
        const chosen = new Set(input.ids);
        const missing = rows.flatMap((f) =>
          f.dependencies.filter((d) => !chosen.has(d)).map((dependency) => ({ id: f.id, dependency })),
        );
        if (missing.length > 0) throw new ApiError('shares.dependencies_outside', { missing });
        const now = this.ctx.now();
        const bundle: ShareBundle = {
          format: 'lpa.share.v1',
          created_at: now,
          flows: rows.map((row) => bundleFlow(this.ctx, row, input.include_secrets ?? false)),
        };
        const plaintext = utf8ToBytes(JSON.stringify(bundle));
        if (plaintext.length > MAX_BUNDLE_BYTES) {
          throw new ApiError('shares.bundle_too_large', { size: plaintext.length, limit_bytes: MAX_BUNDLE_BYTES });
        }
        const cipher = Vault.unlocked(key);
        const row: Share = {
          id,
          name: input.name,
          expires_at: now + input.expires_in_minutes * 60_000,
          max_uses: input.max_uses,
          uses: 0,
          size: plaintext.length,
          sha256: bytesToHex(sha256(plaintext)),
        };
        putChunks(this.ctx.db, owner(id), cipher.seal(plaintext, bundleAad(id)));
        this.ctx.db.run(
          `INSERT INTO automation_shares (id, name, created_at, expires_at, max_uses, uses, size, sha256, include_secrets, key_check)
           VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
          id,
          row.name,
          now,
          row.expires_at,
          row.max_uses,
          row.size,
          row.sha256,
          input.include_secrets ? 1 : 0,
          cipher.seal('', checkAad(id)),
        );
        return row;
      },
      (row) => ({
        entity_type: 'share',
        entity_id: row.id,
        details: {
          name: row.name,
          flows: input.ids.length,
          include_secrets: input.include_secrets ?? false,
          max_uses: row.max_uses,
          expires_at: row.expires_at,
        },
      }),
    );
    return { ...share, code: encodeShareCode(id, key) };
  }

  /** A revoked share's bundle is deleted, and its redeemed tickets can no longer import. */
  revoke(audit: AuditContext, id: string): void {
    revoke(this.ctx, audit, 'share', id, () => {
      deleteChunks(this.ctx.db, owner(id));
      this.ctx.db.run('UPDATE automation_share_tickets SET key_sealed = NULL WHERE share_id = ?', id);
    });
  }

  /** Spends one use of a share and hands out a ticket for importing from it. */
  redeem(audit: AuditContext, code: string): ShareRedeemPreview {
    const parsed = parseShareCode(code);
    if (!parsed) throw new ApiError('shares.code_malformed');
    return this.ctx.change(
      audit,
      () => {
        const now = this.ctx.now();
        const row = first<ShareRow>(this.ctx.db, 'SELECT * FROM automation_shares WHERE id = ?', parsed.id);
        if (!row) throw new ApiError('shares.code_unknown');
        const cipher = Vault.unlocked(parsed.key);
        openOrRefuse(() => cipher.openBytes(row.key_check, checkAad(row.id)));
        if (row.revoked_at !== null) throw new ApiError('shares.revoked', { id: row.id });
        if (now >= row.expires_at) throw new ApiError('shares.expired', { id: row.id, expires_at: row.expires_at });
        if (row.uses >= row.max_uses)
          throw new ApiError('shares.exhausted', { id: row.id, uses: row.uses, max_uses: row.max_uses });
        const bundle = this.openBundle(row.id, parsed.key);
        const ticket = crypto.randomUUID();
        const expiresAt = now + TICKET_LIFETIME_MS;
        this.ctx.db.run('DELETE FROM automation_share_tickets WHERE expires_at < ?', now - TICKET_MEMORY_MS);
        this.ctx.db.run(
          'INSERT INTO automation_share_tickets (ticket, share_id, key_sealed, expires_at) VALUES (?, ?, ?, ?)',
          ticket,
          row.id,
          this.ctx.vault.seal(parsed.key, ticketAad(ticket)),
          expiresAt,
        );
        this.ctx.db.run('UPDATE automation_shares SET uses = uses + 1 WHERE id = ?', row.id);
        return {
          share: row.id,
          uses: row.uses + 1,
          preview: {
            sha256: row.sha256,
            created_at: new Date(row.created_at).toISOString(),
            ticket,
            expires_at: expiresAt,
            items: bundle.flows.map(previewItem),
          },
        };
      },
      (r) => ({ entity_type: 'share', entity_id: r.share, details: { uses: r.uses, items: r.preview.items.length } }),
    ).preview;
  }

  /** Imports the chosen items of a redeemed share as new flows; the ticket is spent only if it succeeds. */
  import(audit: AuditContext, { ticket, ids }: ShareImportRequest): ShareImportResult {
    const imported = this.ctx.change(
      audit,
      () => {
        const now = this.ctx.now();
        const t = first<TicketRow>(this.ctx.db, 'SELECT * FROM automation_share_tickets WHERE ticket = ?', ticket);
        if (!t) throw new ApiError('shares.ticket_unknown');
        if (t.used_at !== null) throw new ApiError('shares.ticket_used');
        if (now >= t.expires_at) throw new ApiError('shares.ticket_expired', { expires_at: t.expires_at });
        if (t.key_sealed === null) throw new ApiError('shares.revoked', { id: t.share_id });
        const bundle = this.openBundle(t.share_id, this.ctx.vault.openBytes(t.key_sealed, ticketAad(ticket)));
        const byId = new Map(bundle.flows.map((f) => [f.id, f]));
        const unknown = ids.filter((id) => !byId.has(id));
        if (unknown.length > 0) throw new ApiError('shares.import_unknown_items', { ids: unknown });
        const chosen = new Set(ids);
        const missing = ids.flatMap((id) =>
          byId
            .get(id)!
            .dependencies.filter((d) => !chosen.has(d))
            .map((dependency) => ({ id, dependency })),
        );
        if (missing.length > 0) throw new ApiError('shares.import_dependencies_missing', { missing });
        const newIds = new Map(ids.map((id) => [id, crypto.randomUUID()]));
        const items = ids.map((id) => {
          const flow = byId.get(id)!;
          insertFlow(this.ctx, { ...flow, dependencies: flow.dependencies.map((d) => newIds.get(d)!) }, newIds.get(id));
          return { id: newIds.get(id)!, name: flow.name, is_template: flow.is_template };
        });
        this.ctx.db.run(
          'UPDATE automation_share_tickets SET used_at = ?, key_sealed = NULL WHERE ticket = ?',
          now,
          ticket,
        );
        return { share: t.share_id, items, from: ids };
      },
      (r) => ({
        entity_type: 'share',
        entity_id: r.share,
        details: { flows: r.items.map((item, i) => ({ from: r.from[i], id: item.id })) },
      }),
    );
    return { items: imported.items };
  }

  /**
   * Shares that are not revoked, as they are kept: the bundle and key check sealed under the share's
   * own key, which this store does not have. Copied so (storage/transfer), a share's code redeems in
   * the store it was pushed to.
   */
  slice(offset: number, limit: number): SealedShare[] {
    return this.ctx.db
      .all<ShareRow>(
        'SELECT * FROM automation_shares WHERE revoked_at IS NULL ORDER BY created_at, id LIMIT ? OFFSET ?',
        limit,
        offset,
      )
      .map((row) => this.sealed(row));
  }

  /** The share with this id as it is kept; a revoked one as `revoked`; null when there is none. */
  find(id: string): SealedShare | 'revoked' | null {
    const row = first<ShareRow>(this.ctx.db, 'SELECT * FROM automation_shares WHERE id = ?', id);
    if (!row) return null;
    return row.revoked_at === null ? this.sealed(row) : 'revoked';
  }

  /** Writes a share pushed from another store as it was kept there, in the caller's transaction. */
  insert(share: SealedShare): void {
    putChunks(this.ctx.db, owner(share.id), share.bundle);
    this.ctx.db.run(
      `INSERT INTO automation_shares (id, name, created_at, expires_at, max_uses, uses, size, sha256, include_secrets, key_check)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      share.id,
      share.name,
      share.created_at,
      share.expires_at,
      share.max_uses,
      share.uses,
      share.size,
      share.sha256,
      share.include_secrets ? 1 : 0,
      share.key_check,
    );
  }

  private sealed(row: ShareRow): SealedShare {
    return {
      id: row.id,
      name: row.name,
      created_at: row.created_at,
      expires_at: row.expires_at,
      max_uses: row.max_uses,
      uses: row.uses,
      size: row.size,
      sha256: row.sha256,
      include_secrets: row.include_secrets === 1,
      key_check: row.key_check,
      bundle: getChunks(this.ctx.db, owner(row.id))!,
    };
  }

  private openBundle(id: string, key: Uint8Array): ShareBundle {
    const sealed = getChunks(this.ctx.db, owner(id));
    if (sealed === null) throw new ApiError('shares.revoked', { id });
    const plaintext = openOrRefuse(() => Vault.unlocked(key).openBytes(sealed, bundleAad(id)));
    return JSON.parse(new TextDecoder().decode(plaintext)) as ShareBundle;
  }
}

/** A failed GCM authentication means the code (or the stored ciphertext) is not the one issued. */
function openOrRefuse(open: () => Uint8Array): Uint8Array {
  try {
    return open();
  } catch {
    throw new ApiError('shares.code_invalid');
  }
}

function previewItem(flow: BundledFlow): PreviewItem {
  return {
    id: flow.id,
    name: flow.name,
    dependencies: flow.dependencies,
    group: flow.group,
    description: flow.description,
    missing_values: flow.values.filter((v) => v.value === null).length,
    is_template: flow.is_template,
    steps: flow.steps.length,
    protected_values: flow.values.filter((v) => v.protected && v.value !== null).length,
  };
}
