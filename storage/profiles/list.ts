import type { SqlDb, SqlValue } from '../sql/sql';
import { PROFILE_ROWS, PROFILES_WITH_LEASE, RUNNING, type ProfileRow, type SortColumns } from './columns';
import type { CursorSigner, Keyset } from './cursor';
import type { ProfileQuery, ProfileSort } from './schema';

/** The indexed column of each sort; `no` is the rowid, so each index is (column, no). */
const SORT_COLUMN: Record<ProfileSort, { column: keyof SortColumns; type: 'string' | 'number' }> = {
  no: { column: 'no', type: 'number' },
  // Case-folded so that "alice" and "Bob" sort as people expect, for every script.
  name: { column: 'name_lc', type: 'string' },
  created_at: { column: 'created_at', type: 'number' },
  updated_at: { column: 'updated_at', type: 'number' },
};

/** One page of profile rows, the cursor after it (null when done) and the count of all matches. */
export function listProfileRows(db: SqlDb, signer: CursorSigner, query: ProfileQuery) {
  const { column, type } = SORT_COLUMN[query.sort];
  const dir = query.order === 'desc' ? 'DESC' : 'ASC';
  const filter = filters(query);
  const binding = {
    sort: query.sort,
    order: query.order,
    group: query.group ?? null,
    tag: query.tag ?? null,
    pinned: query.pinned ?? null,
    running: query.running ?? null,
    q: query.q ?? null,
  };

  const where = [...filter.clauses];
  const params = [...filter.params];
  if (query.cursor !== undefined) {
    const after = signer.open(query.cursor, binding, type);
    const op = dir === 'ASC' ? '>' : '<';
    if (column === 'no') {
      where.push(`no ${op} ?`);
      params.push(after.no);
    } else {
      where.push(`(${column}, no) ${op} (?, ?)`);
      params.push(after.value, after.no);
    }
  }
  const order = `${query.pinned_first ? 'pinned DESC, ' : ''}${column === 'no' ? '' : `${column} ${dir}, `}no ${dir}`;
  const offset = query.page === undefined ? 0 : (query.page - 1) * query.limit;
  const rows = db.all<ProfileRow>(
    `SELECT ${PROFILE_ROWS} ${whereSql(where)} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ...params,
    query.limit + 1,
    offset,
  );
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  // A cursor cannot carry the pinned-first order, so that order is paged by `page` alone.
  const next_cursor = more && last && !query.pinned_first ? signer.sign(binding, keysetOf(last, column)) : null;
  // Only a `running` filter reads the lease; SQLite would look it up for every row counted all the same.
  const counted = query.running === undefined ? 'profiles' : PROFILES_WITH_LEASE;
  const total = db.all<{ n: number }>(
    `SELECT count(*) AS n FROM ${counted} ${whereSql(filter.clauses)}`,
    ...filter.params,
  )[0]!.n;
  return { rows: page, next_cursor, total };
}

const keysetOf = (row: ProfileRow, column: keyof SortColumns): Keyset => ({ value: row[column], no: row.no });

const whereSql = (clauses: string[]) => (clauses.length ? `WHERE ${clauses.join(' AND ')}` : '');

function filters(query: ProfileQuery): { clauses: string[]; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (query.group !== undefined) {
    clauses.push('grp = ?');
    params.push(query.group);
  }
  if (query.tag !== undefined) {
    clauses.push('EXISTS (SELECT 1 FROM profile_tags t WHERE t.tag = ? AND t.profile_no = profiles.no)');
    params.push(query.tag);
  }
  if (query.pinned !== undefined) {
    clauses.push('pinned = ?');
    params.push(query.pinned ? 1 : 0);
  }
  if (query.running !== undefined) clauses.push(query.running ? RUNNING : `NOT ${RUNNING}`);
  if (query.q !== undefined) {
    const needle = query.q.toLowerCase();
    clauses.push('(instr(name_lc, ?) > 0 OR instr(notes_lc, ?) > 0)');
    params.push(needle, needle);
  }
  return { clauses, params };
}
