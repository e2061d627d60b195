import { ApiError } from '../../src/shared/errors/api-error';
import { BROWSER_DEFAULTS, patchBrowserSettings } from '../../src/shared/schemas/browser-settings';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { AuditContext, AuditSubject } from '../audit/entry';
import type { StoreContext } from '../context';
import { CursorSigner } from './cursor';
import { FIELD_COLUMNS, fieldValues, PROFILE_ROWS, toProfile, type ProfileRow } from './columns';
import { listProfileRows } from './list';
import { proxyOf, recordCheck, writeProxy } from './proxy';
import type { Profile, ProfileFields, ProfileInput, ProfilePage, ProfilePatch, ProfileQuery } from './schema';
import { first } from '../sql/sql';
import type { ProxyCheck, ProxyUpstream } from '../../src/shared/schemas/proxy';

/** What a signed-in account allows; null when nobody is signed in (local mode: no limits). */
export interface ProfileQuota {
  entitled: boolean;
  limit: number | null;
}

const INSERTED = ['id', ...FIELD_COLUMNS, 'created_at', 'updated_at'];
const INSERT = `INSERT INTO profiles (${INSERTED.join(', ')}) VALUES (${INSERTED.map(() => '?').join(', ')})`;
const UPDATE = `UPDATE profiles SET ${FIELD_COLUMNS.map((column) => `${column} = ?`).join(', ')}, updated_at = ? WHERE no = ?`;

const subject = (p: Profile): AuditSubject => ({
  entity_type: 'profile',
  entity_id: p.id,
  entity_no: p.no,
  details: { name: p.name },
});

/** Browser profiles: records with a serial `no`, tags for filtering, and keyset-paged listing. */
export class Profiles {
  private readonly cursors: CursorSigner;

  constructor(private readonly ctx: StoreContext) {
    // The cursor key is made once per store and kept, so cursors survive restarts.
    ctx.db.run(
      `INSERT OR IGNORE INTO meta (key, value) VALUES ('profiles.cursor_key', ?)`,
      bytesToHex(crypto.getRandomValues(new Uint8Array(32))),
    );
    const key = first<{ value: string }>(ctx.db, `SELECT value FROM meta WHERE key = 'profiles.cursor_key'`)!.value;
    this.cursors = new CursorSigner(hexToBytes(key));
  }

  create(audit: AuditContext, input: ProfileInput, quota: ProfileQuota | null): Profile {
    return this.ctx.change(
      audit,
      () => {
        if (quota) this.assertQuota(quota);
        const now = this.ctx.now();
        const browser = patchBrowserSettings(BROWSER_DEFAULTS, input.browser);
        const profile = this.insert(crypto.randomUUID(), { ...input, browser }, now, now);
        if (!input.proxy) return profile;
        writeProxy(this.ctx, audit, profile, input.proxy);
        return this.require(profile.id);
      },
      subject,
    );
  }

  get(id: string): Profile {
    return this.require(id);
  }

  update(audit: AuditContext, id: string, patch: ProfilePatch): Profile {
    return this.ctx.change(
      audit,
      () => {
        const current = this.require(id);
        const browser = patchBrowserSettings(current.browser, patch.browser);
        this.ctx.db.run(UPDATE, ...fieldValues({ ...current, ...patch, browser }), this.ctx.now(), current.no);
        if (patch.tags) this.writeTags(current.no, patch.tags);
        if (patch.proxy !== undefined) writeProxy(this.ctx, audit, current, patch.proxy);
        return this.require(id);
      },
      (p) => ({ ...subject(p), details: { name: p.name, fields: Object.keys(patch).sort() } }),
    );
  }

  /** Deletes the profile and, in the same transaction, its platform accounts, tags and (in a team) the record of its browser data. */
  delete(audit: AuditContext, id: string): void {
    this.ctx.change(
      audit,
      () => {
        const profile = this.require(id);
        const accounts = this.ctx.db.run('DELETE FROM profile_accounts WHERE profile_no = ?', profile.no);
        this.ctx.db.run('DELETE FROM profile_tags WHERE profile_no = ?', profile.no);
        this.ctx.db.run('DELETE FROM profile_bundles WHERE profile_id = ?', id);
        this.ctx.db.run('DELETE FROM profiles WHERE no = ?', profile.no);
        return { profile, accounts };
      },
      ({ profile, accounts }) => ({ ...subject(profile), details: { name: profile.name, accounts_deleted: accounts } }),
    );
  }

  /** The profile's proxy with its password opened: only for its browser's start or a check through it. */
  proxy(id: string): ProxyUpstream | null {
    return proxyOf(this.ctx, this.require(id));
  }

  /** Audits a check through the profile's proxy (`profiles.proxy_check`). */
  proxyChecked(audit: AuditContext, id: string, url: string, check: ProxyCheck): void {
    recordCheck(this.ctx, audit, this.require(id), url, check);
  }

  /**
   * The audit entry of something done to a profile outside the store (its cookies read or written by
   * its browser), with `details`, which must never hold a secret; fails closed like a secret's read.
   */
  record(audit: AuditContext, id: string, details: Record<string, unknown>): Profile {
    return this.ctx.change(
      audit,
      () => this.require(id),
      (p) => ({ ...subject(p), details: { name: p.name, ...details } }),
    );
  }

  list(query: ProfileQuery): ProfilePage {
    const { rows, next_cursor, total } = listProfileRows(this.ctx.db, this.cursors, query);
    return { items: rows.map(toProfile), next_cursor, total };
  }

  count(): number {
    return this.ctx.db.all<{ n: number }>('SELECT count(*) AS n FROM profiles')[0]!.n;
  }

  /**
   * Writes a profile with the given id and times, in the caller's transaction: a new one, or one
   * pushed from another store (storage/transfer), which keeps its id and times there.
   */
  insert(id: string, fields: Partial<ProfileFields>, createdAt: number, updatedAt: number): Profile {
    this.ctx.db.run(INSERT, id, ...fieldValues(fields), createdAt, updatedAt);
    const profile = this.require(id);
    this.writeTags(profile.no, profile.tags);
    return profile;
  }

  /** Profiles in the order they were made, `limit` of them after the first `offset`. */
  slice(offset: number, limit: number): Profile[] {
    return this.ctx.db
      .all<ProfileRow>(`SELECT ${PROFILE_ROWS} ORDER BY no LIMIT ? OFFSET ?`, limit, offset)
      .map(toProfile);
  }

  find(id: string): Profile | null {
    const row = first<ProfileRow>(this.ctx.db, `SELECT ${PROFILE_ROWS} WHERE id = ?`, id);
    return row ? toProfile(row) : null;
  }

  /** The profile with this id, or the 404 that names it. */
  require(id: string): Profile {
    const profile = this.find(id);
    if (!profile) throw new ApiError('resource.not_found', { resource: 'profile', id });
    return profile;
  }

  private assertQuota(quota: ProfileQuota): void {
    if (!quota.entitled) throw new ApiError('account.entitlement_missing', { entitlement: 'profiles' });
    const usage = this.count();
    if (quota.limit !== null && usage >= quota.limit)
      throw new ApiError('account.limit_reached', { limit: 'profiles', max: quota.limit, usage });
  }

  private writeTags(no: number, tags: readonly string[]): void {
    this.ctx.db.run('DELETE FROM profile_tags WHERE profile_no = ?', no);
    for (const tag of tags) this.ctx.db.run('INSERT INTO profile_tags (tag, profile_no) VALUES (?, ?)', tag, no);
  }
}
