import type { Migration } from './migrate';

/** The members of a team and their roles (storage/members). A local store has the table and keeps it empty. */
export const membersMigration: Migration = {
  id: 7,
  name: 'members',
  statements: [
    `CREATE TABLE members (
      email TEXT PRIMARY KEY, role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
  ],
};
