import { BROWSER_DEFAULTS } from '../../src/shared/schemas/browser-settings';
import { LIVE_STATES_SQL } from '../runs/runs';
import type { SqlValue } from '../sql/sql';
import { PROXY_SHOWN } from './proxy';
import { Profile, PROFILE_DEFAULTS, ProfileFields } from './schema';

/** The columns a listing sorts by; `no` is the rowid. */
export interface SortColumns {
  no: number;
  name_lc: string;
  created_at: number;
  updated_at: number;
}

/** A `profiles` row: the sort columns, the id and the columns of the fields (below). */
export type ProfileRow = SortColumns & Record<string, SqlValue>;

interface Stored {
  column: string;
  write: (value: unknown) => SqlValue;
  read: (value: SqlValue) => unknown;
}

const asIs = (value: unknown) => value as SqlValue;

/**
 * A field is stored as is in the column of its name, except these. So a new text or number field
 * needs only its schema entry and the migration that adds its column.
 */
const STORED_AS: Partial<Record<keyof Profile, Stored>> = {
  // `group` is an SQL keyword.
  group: { column: 'grp', write: asIs, read: asIs },
  tags: { column: 'tags', write: (tags) => JSON.stringify(tags), read: (text) => JSON.parse(text as string) },
  pinned: { column: 'pinned', write: (pinned) => (pinned ? 1 : 0), read: (flag) => flag === 1 },
  // A profile made before the column was added (migration 012) holds null: the defaults.
  browser: {
    column: 'browser',
    write: (settings) => JSON.stringify(settings),
    read: (text) => (text === null ? BROWSER_DEFAULTS : JSON.parse(text as string)),
  },
  // Not stored: PROFILE_ROWS computes them from the runs and the leases.
  running: { column: 'running', write: asIs, read: (flag) => flag === 1 },
  running_on: {
    column: 'running_on',
    write: asIs,
    read: (text) => (text === null ? null : JSON.parse(text as string)),
  },
  // Written on its own with its sealed password (./proxy.ts); PROFILE_ROWS shows it as `proxy_shown`.
  proxy: { column: 'proxy_shown', write: asIs, read: (text) => (text === null ? null : JSON.parse(text as string)) },
};

/**
 * The profiles, each with its live lease if it has one (storage/leases; a machine's store has none,
 * a team's has no runs): the lease's row is read once per profile, by its key, and both `running` and
 * `running_on` come from it. Now is SQLite's clock in epoch milliseconds.
 */
export const PROFILES_WITH_LEASE = `profiles LEFT JOIN run_leases l ON l.profile_id = profiles.id AND l.ended_at IS NULL
  AND l.expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

/**
 * Whether a profile has a live run (storage/runs) on this machine, or on a team a live lease, as a
 * column of a row of PROFILES_WITH_LEASE.
 */
export const RUNNING = `(EXISTS (SELECT 1 FROM runs r WHERE r.profile_id = profiles.id AND r.state IN (${LIVE_STATES_SQL}))
  OR l.profile_id IS NOT NULL)`;

/** Where a team profile runs: its live lease's machine, who took it and since when, as JSON. */
const RUNNING_ON = `CASE WHEN l.profile_id IS NULL THEN NULL ELSE json_object('machine_id', l.machine_id,
  'machine_label', l.machine_label, 'who', l.who, 'since', l.since) END`;

/** The rows of profiles with every column the record reads: `SELECT ${PROFILE_ROWS} WHERE …`. */
export const PROFILE_ROWS = `profiles.*, ${RUNNING} AS running, ${RUNNING_ON} AS running_on, ${PROXY_SHOWN} AS proxy_shown
  FROM ${PROFILES_WITH_LEASE}`;

/** Text fields with a lower-cased copy in `<field>_lc`, for the name sort and for `q`. */
const CASE_FOLDED = ['name', 'notes'] as const;

const FIELDS = Object.keys(ProfileFields.shape) as (keyof ProfileFields)[];
const storedAs = (field: string): Stored =>
  STORED_AS[field as keyof Profile] ?? { column: field, write: asIs, read: asIs };

/** The columns that hold a profile's fields, in the order of `fieldValues`. */
export const FIELD_COLUMNS = [
  ...FIELDS.map((field) => storedAs(field).column),
  ...CASE_FOLDED.map((field) => `${field}_lc`),
];

/** The column values of these fields, in the order of `FIELD_COLUMNS`; a field not given gets its default. */
export function fieldValues(fields: Partial<ProfileFields>): SqlValue[] {
  const value = (field: keyof ProfileFields) => fields[field] ?? PROFILE_DEFAULTS[field] ?? null;
  return [
    ...FIELDS.map((field) => storedAs(field).write(value(field))),
    ...CASE_FOLDED.map((field) => (value(field) as string | null)?.toLowerCase() ?? null),
  ];
}

const RECORD_KEYS = Object.keys(Profile.shape).map((key) => [key, storedAs(key)] as const);

/** The record of a row, its properties in the schema's order. */
export function toProfile(row: ProfileRow): Profile {
  const profile: Record<string, unknown> = {};
  for (const [key, stored] of RECORD_KEYS) profile[key] = stored.read(row[stored.column]!);
  return profile as Profile;
}
