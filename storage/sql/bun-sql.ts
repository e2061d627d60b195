import type { Database } from 'bun:sqlite';
import type { SqlDb, SqlValue } from './sql';

/** Bun's SQLite behind the portable `SqlDb` interface; nested transactions become savepoints. */
export function bunSql(db: Database): SqlDb {
  return {
    all<T>(query: string, ...params: SqlValue[]): T[] {
      return db.query(query).all(...(params as never[])) as T[];
    },
    run(query: string, ...params: SqlValue[]): number {
      return db.query(query).run(...(params as never[])).changes;
    },
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
  };
}
