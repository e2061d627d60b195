import { ApiError } from '../../src/shared/errors/api-error';
import { totpAt } from '../../src/shared/totp';
import type { AuditContext, AuditSubject } from '../audit/entry';
import type { StoreContext } from '../context';
import type { Profiles } from '../profiles/profiles';
import type { Profile } from '../profiles/schema';
import { first } from '../sql/sql';
import { openField, sealField } from '../vault';
import type { PlatformAccountInput, PlatformAccountPatch, PlatformAccount, PlatformPassword, TotpCode } from './schema';
import type { ItemOf } from '../transfer/schema';

/** The most platform accounts one profile holds; they are listed unpaged. */
export const MAX_ACCOUNTS_PER_PROFILE = 500;

interface AccountRow {
  id: string;
  profile_no: number;
  platform_url: string;
  username: string | null;
  password: string | null;
  totp_secret: string | null;
  notes: string | null;
  sort_order: number;
  created_at: number;
  updated_at: number;
}

type SecretField = 'password' | 'totp_secret';

/** An account as `lpa team push` carries it: every column, the secrets in plaintext. */
export type PlainAccount = Omit<ItemOf<'accounts'>, 'kind'>;

/** The associated data of a sealed secret: a ciphertext opens only in its own account and field. */
const aad = (accountId: string, field: SecretField) => `profile_account:${accountId}:${field}`;

const toAccount = (row: AccountRow, profile: Profile): PlatformAccount => ({
  id: row.id,
  profile_id: profile.id,
  platform_url: row.platform_url,
  username: row.username,
  password_set: row.password !== null,
  totp_set: row.totp_secret !== null,
  notes: row.notes,
  sort_order: row.sort_order,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The audit subject: which account of which profile, and which fields; never a secret's value. */
const subject = (profile: Profile, accountId: string, details: Record<string, unknown> = {}): AuditSubject => ({
  entity_type: 'profile_account',
  entity_id: accountId,
  entity_no: profile.no,
  details: { profile_id: profile.id, ...details },
});

/**
 * Platform accounts of a profile. Passwords and 2FA secrets are sealed by the vault before they
 * reach a row, and come out only through `password` and `totp`, each audited in its transaction.
 */
export class ProfileAccounts {
  constructor(
    private readonly ctx: StoreContext,
    private readonly profiles: Profiles,
  ) {}

  list(profileId: string): PlatformAccount[] {
    const profile = this.profiles.require(profileId);
    return this.ctx.db
      .all<AccountRow>(
        'SELECT * FROM profile_accounts WHERE profile_no = ? ORDER BY sort_order, created_at, id',
        profile.no,
      )
      .map((row) => toAccount(row, profile));
  }

  create(audit: AuditContext, profileId: string, input: PlatformAccountInput): PlatformAccount {
    return this.write(audit, profileId, input, (profile) => {
      const count = this.ctx.db.all<{ n: number }>(
        'SELECT count(*) AS n FROM profile_accounts WHERE profile_no = ?',
        profile.no,
      )[0]!.n;
      if (count >= MAX_ACCOUNTS_PER_PROFILE)
        throw new ApiError('profile_accounts.limit_reached', { max: MAX_ACCOUNTS_PER_PROFILE });
      const now = this.ctx.now();
      return this.insert(profile, crypto.randomUUID(), input, now, now);
    });
  }

  /**
   * Writes an account with the given id and times, its secrets sealed, in the caller's transaction:
   * a new one, or one pushed from another store (storage/transfer), which keeps its id and times.
   */
  insert(profile: Profile, id: string, input: PlatformAccountInput, createdAt: number, updatedAt: number): string {
    this.ctx.db.run(
      `INSERT INTO profile_accounts (id, profile_no, platform_url, username, password, totp_secret, notes, sort_order, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      profile.no,
      input.platform_url,
      input.username ?? null,
      this.seal(id, 'password', input.password),
      this.seal(id, 'totp_secret', input.totp_secret),
      input.notes ?? null,
      input.sort_order ?? 0,
      createdAt,
      updatedAt,
    );
    return id;
  }

  /** Accounts with their secrets opened, profile by profile, for `lpa team push`: the caller audits the read. */
  slice(offset: number, limit: number): PlainAccount[] {
    return this.ctx.db
      .all<AccountRow & { profile_id: string }>(
        `SELECT a.*, p.id AS profile_id FROM profile_accounts a JOIN profiles p ON p.no = a.profile_no
         ORDER BY a.profile_no, a.sort_order, a.created_at, a.id LIMIT ? OFFSET ?`,
        limit,
        offset,
      )
      .map((row) => this.plain(row));
  }

  /** The account with this id and its secrets opened, whatever its profile; null when there is none. */
  find(id: string): PlainAccount | null {
    const row = first<AccountRow & { profile_id: string }>(
      this.ctx.db,
      'SELECT a.*, p.id AS profile_id FROM profile_accounts a JOIN profiles p ON p.no = a.profile_no WHERE a.id = ?',
      id,
    );
    return row ? this.plain(row) : null;
  }

  private plain({ profile_no: _no, ...row }: AccountRow & { profile_id: string }): PlainAccount {
    const opened = (field: SecretField) => (row[field] === null ? null : this.open(row.id, field, row[field]));
    return { ...row, password: opened('password'), totp_secret: opened('totp_secret') };
  }

  /** Applies the given fields; `null` for password or totp_secret removes it, absent leaves it. */
  update(audit: AuditContext, profileId: string, accountId: string, patch: PlatformAccountPatch): PlatformAccount {
    return this.write(audit, profileId, patch, (profile) => {
      const row = this.requireRow(profile, accountId);
      const keep = <K extends keyof AccountRow & keyof PlatformAccountPatch>(field: K) =>
        patch[field] === undefined ? row[field] : patch[field];
      const secret = (field: SecretField) =>
        patch[field] === undefined ? row[field] : this.seal(accountId, field, patch[field]);
      this.ctx.db.run(
        `UPDATE profile_accounts SET platform_url = ?, username = ?, password = ?, totp_secret = ?, notes = ?, sort_order = ?, updated_at = ?
         WHERE id = ?`,
        keep('platform_url'),
        keep('username'),
        secret('password'),
        secret('totp_secret'),
        keep('notes'),
        keep('sort_order'),
        this.ctx.now(),
        accountId,
      );
      return accountId;
    });
  }

  delete(audit: AuditContext, profileId: string, accountId: string): void {
    this.ctx.change(
      audit,
      () => {
        const profile = this.profiles.require(profileId);
        const row = this.requireRow(profile, accountId);
        this.ctx.db.run('DELETE FROM profile_accounts WHERE id = ?', accountId);
        return { profile, row };
      },
      ({ profile, row }) => subject(profile, row.id, { platform_url: row.platform_url }),
    );
  }

  /** The plaintext password; the read is audited in the same transaction and fails without its entry. */
  password(audit: AuditContext, profileId: string, accountId: string): PlatformPassword {
    const { profile, sealed } = this.sealedSecret(profileId, accountId, 'password');
    return this.ctx.change(
      audit,
      () => ({ password: this.open(accountId, 'password', sealed) }),
      () => subject(profile, accountId),
    );
  }

  /** The current 2FA code; the read is audited like a password read. */
  totp(audit: AuditContext, profileId: string, accountId: string): TotpCode {
    const { profile, sealed } = this.sealedSecret(profileId, accountId, 'totp_secret');
    return this.ctx.change(
      audit,
      () => totpAt(this.open(accountId, 'totp_secret', sealed), this.ctx.now()),
      () => subject(profile, accountId),
    );
  }

  /** Runs one write on an account of the profile, audited with the names of the fields it set. */
  private write(
    audit: AuditContext,
    profileId: string,
    fields: PlatformAccountPatch,
    fn: (profile: Profile) => string,
  ): PlatformAccount {
    return this.ctx.change(
      audit,
      () => {
        const profile = this.profiles.require(profileId);
        return { profile, account: toAccount(this.requireRow(profile, fn(profile)), profile) };
      },
      ({ profile, account }) =>
        subject(profile, account.id, { platform_url: account.platform_url, fields: fieldsOf(fields) }),
    ).account;
  }

  private sealedSecret(profileId: string, accountId: string, field: SecretField): { profile: Profile; sealed: string } {
    const profile = this.profiles.require(profileId);
    const sealed = this.requireRow(profile, accountId)[field];
    if (sealed === null) throw new ApiError('resource.not_found', { resource: field, account_id: accountId });
    return { profile, sealed };
  }

  private open(accountId: string, field: SecretField, sealed: string): string {
    return openField(this.ctx.vault, sealed, aad(accountId, field), { account_id: accountId, field });
  }

  private seal(accountId: string, field: SecretField, value: string | null | undefined): string | null {
    return sealField(this.ctx.vault, value, aad(accountId, field));
  }

  private requireRow(profile: Profile, accountId: string): AccountRow {
    const row = first<AccountRow>(
      this.ctx.db,
      'SELECT * FROM profile_accounts WHERE id = ? AND profile_no = ?',
      accountId,
      profile.no,
    );
    if (!row) throw new ApiError('resource.not_found', { resource: 'profile_account', id: accountId });
    return row;
  }
}

/** Names of the fields a request set; a secret field appears by name only. */
const fieldsOf = (input: PlatformAccountPatch) => Object.keys(input).sort();
