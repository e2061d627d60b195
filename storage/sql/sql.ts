/**
 * The small synchronous SQL interface every storage module is written against, so the same modules
 * run on a Durable Object's `ctx.storage.sql`, on `bun:sqlite` and on `node:sqlite`.
 */
export type SqlValue = string | number | null | ArrayBuffer | Uint8Array;
export type Row = Record<string, SqlValue>;

export interface SqlDb {
  /** Runs one statement and returns every row, fully read. */
  all<T = Row>(query: string, ...params: SqlValue[]): T[];
  /** Runs one statement and returns how many rows it wrote. */
  run(query: string, ...params: SqlValue[]): number;
  /** Runs `fn` in one transaction; it must be synchronous, so no other request can interleave. */
  transaction<T>(fn: () => T): T;
}

export function first<T = Row>(db: SqlDb, query: string, ...params: SqlValue[]): T | undefined {
  return db.all<T>(query, ...params)[0];
}
