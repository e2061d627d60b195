import type { Migration } from './migrate';

export const profilesMigration: Migration = {
  id: 4,
  name: 'profiles',
  statements: [
    // `no` is the rowid, so every index below ends in it: (sort key, no) is the keyset of a cursor.
    // AUTOINCREMENT because `no` is the audit's entity_no and must never name a second profile.
    `CREATE TABLE profiles (
      no INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, name_lc TEXT NOT NULL,
      grp TEXT, tags TEXT NOT NULL, pinned INTEGER NOT NULL, notes TEXT, notes_lc TEXT,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
    `CREATE INDEX profiles_by_name ON profiles (name_lc)`,
    `CREATE INDEX profiles_by_created ON profiles (created_at)`,
    `CREATE INDEX profiles_by_updated ON profiles (updated_at)`,
    `CREATE INDEX profiles_by_group ON profiles (grp)`,
    `CREATE INDEX profiles_by_pinned ON profiles (pinned)`,
    `CREATE TABLE profile_tags (tag TEXT NOT NULL, profile_no INTEGER NOT NULL, PRIMARY KEY (tag, profile_no))`,
    `CREATE INDEX profile_tags_by_profile ON profile_tags (profile_no)`,
    // password and totp_secret hold vault ciphertexts (never plaintext), null when not set.
    `CREATE TABLE profile_accounts (
      id TEXT PRIMARY KEY, profile_no INTEGER NOT NULL, platform_url TEXT NOT NULL, username TEXT,
      password TEXT, totp_secret TEXT, notes TEXT, sort_order INTEGER NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
    `CREATE INDEX profile_accounts_by_profile ON profile_accounts (profile_no, sort_order, created_at)`,
    // The last server-confirmed account status, so an offline start still knows it until verifiedUntil.
    `CREATE TABLE account_status_cache (
      id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT NOT NULL, status TEXT NOT NULL,
      verified_until INTEGER NOT NULL, saved_at INTEGER NOT NULL)`,
  ],
};
