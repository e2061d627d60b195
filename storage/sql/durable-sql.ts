import type { SqlDb, SqlValue } from './sql';

/** The Durable Object's SQLite storage behind the portable `SqlDb` interface. */
export function durableSql(storage: DurableObjectStorage): SqlDb {
  return {
    all<T>(query: string, ...params: SqlValue[]): T[] {
      return storage.sql.exec(query, ...params).toArray() as T[];
    },
    run(query: string, ...params: SqlValue[]): number {
      const cursor = storage.sql.exec(query, ...params);
      cursor.toArray();
      return cursor.rowsWritten;
    },
    transaction<T>(fn: () => T): T {
      return storage.transactionSync(fn);
    },
  };
}
