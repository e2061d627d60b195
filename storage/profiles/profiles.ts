import { ApiError } from '../../src/errors/api-error';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { AuditContext, AuditSubject } from '../audit/entry';
import type { StoreContext } from '../context';
import { CursorSigner } from './cursor';
import { listProfileRows, type ProfileQuery, type ProfileRow } from './list';
import { first } from '../sql/sql';

export interface Profile {
  id: string;
  no: number;
  name: string;
  group: string | null;
  tags: string[];
  pinned: boolean;
  notes: string | null;
  created_at: number;
  updated_at: number;
}

export interface ProfileInput {
  name: string;
  group?: string | null;
  tags?: string[];
  pinned?: boolean;
  notes?: string | null;
}

/** What a signed-in account allows; null when nobody is signed in (local mode: no limits). */
export interface ProfileQuota {
  entitled: boolean;
  limit: number | null;
}

const toProfile = (row: ProfileRow): Profile => ({
  id: row.id,
  no: row.no,
  name: row.name,
  group: row.grp,
  tags: JSON.parse(row.tags) as string[],
  pinned: row.pinned === 1,
  notes: row.notes,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const subject = (p: Profile): AuditSubject => ({ entity_type: 'profile', entity_id: p.id, entity_no: p.no, details: { name: p.name } });

/** Browser profiles: records with a serial `no`, tags for filtering, and keyset-paged listing. */
export class Profiles {
  private readonly cursors: CursorSigner;

  constructor(private readonly ctx: StoreContext) {
    // The cursor key is made once per store and kept, so cursors survive restarts.
    ctx.db.run(`INSERT OR IGNORE INTO meta (key, value) VALUES ('profiles.cursor_key', ?)`, bytesToHex(crypto.getRandomValues(new Uint8Array(32))));
    const key = first<{ value: string }>(ctx.db, `SELECT value FROM meta WHERE key = 'profiles.cursor_key'`)!.value;
    this.cursors = new CursorSigner(hexToBytes(key));
  }

  create(audit: AuditContext, input: ProfileInput, quota: ProfileQuota | null): Profile {
    return this.ctx.change(
      audit,
      () => {
        if (quota) this.assertQuota(quota);
        const now = this.ctx.now();
        const id = crypto.randomUUID();
        const tags = input.tags ?? [];
        const notes = input.notes ?? null;
        this.ctx.db.run(
          `INSERT INTO profiles (id, name, name_lc, grp, tags, pinned, notes, notes_lc, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id, input.name, input.name.toLowerCase(), input.group ?? null, JSON.stringify(tags), input.pinned ? 1 : 0,
          notes, notes?.toLowerCase() ?? null, now, now,
        );
        const profile = this.require(id);
        this.writeTags(profile.no, tags);
        return profile;
      },
      subject,
    );
  }

  get(id: string): Profile {
    return this.require(id);
  }

  update(audit: AuditContext, id: string, patch: Partial<ProfileInput>): Profile {
    return this.ctx.change(
      audit,
      () => {
        const next = { ...this.require(id), ...patch, updated_at: this.ctx.now() };
        this.ctx.db.run(
          `UPDATE profiles SET name = ?, name_lc = ?, grp = ?, tags = ?, pinned = ?, notes = ?, notes_lc = ?, updated_at = ? WHERE no = ?`,
          next.name, next.name.toLowerCase(), next.group ?? null, JSON.stringify(next.tags), next.pinned ? 1 : 0,
          next.notes ?? null, next.notes?.toLowerCase() ?? null, next.updated_at, next.no,
        );
        if (patch.tags) this.writeTags(next.no, patch.tags);
        return this.require(id);
      },
      (p) => ({ ...subject(p), details: { name: p.name, fields: Object.keys(patch).sort() } }),
    );
  }

  /** Deletes the profile and, in the same transaction, its platform accounts and tags. */
  delete(audit: AuditContext, id: string): void {
    this.ctx.change(
      audit,
      () => {
        const profile = this.require(id);
        const accounts = this.ctx.db.run('DELETE FROM profile_accounts WHERE profile_no = ?', profile.no);
        this.ctx.db.run('DELETE FROM profile_tags WHERE profile_no = ?', profile.no);
        this.ctx.db.run('DELETE FROM profiles WHERE no = ?', profile.no);
        return { profile, accounts };
      },
      ({ profile, accounts }) => ({ ...subject(profile), details: { name: profile.name, accounts_deleted: accounts } }),
    );
  }

  list(query: ProfileQuery): { items: Profile[]; next_cursor: string | null; total: number } {
    const { rows, next_cursor, total } = listProfileRows(this.ctx.db, this.cursors, query);
    return { items: rows.map(toProfile), next_cursor, total };
  }

  count(): number {
    return this.ctx.db.all<{ n: number }>('SELECT count(*) AS n FROM profiles')[0]!.n;
  }

  /** The profile with this id, or the 404 that names it. */
  require(id: string): Profile {
    const row = first<ProfileRow>(this.ctx.db, 'SELECT * FROM profiles WHERE id = ?', id);
    if (!row) throw new ApiError('resource.not_found', { resource: 'profile', id });
    return toProfile(row);
  }

  private assertQuota(quota: ProfileQuota): void {
    if (!quota.entitled) throw new ApiError('account.entitlement_missing', { entitlement: 'profiles' });
    const usage = this.count();
    if (quota.limit !== null && usage >= quota.limit) throw new ApiError('account.limit_reached', { limit: 'profiles', max: quota.limit, usage });
  }

  private writeTags(no: number, tags: readonly string[]): void {
    this.ctx.db.run('DELETE FROM profile_tags WHERE profile_no = ?', no);
    for (const tag of tags) this.ctx.db.run('INSERT INTO profile_tags (tag, profile_no) VALUES (?, ?)', tag, no);
  }
}
