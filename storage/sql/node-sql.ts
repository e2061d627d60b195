import type { DatabaseSync } from 'node:sqlite';
import type { SqlDb, SqlValue } from './sql';

/**
 * `node:sqlite` (Deno, and Node 22.5 or newer) behind the portable `SqlDb` interface. Every
 * transaction is a savepoint: the outermost one begins and commits the transaction, nested ones
 * (a group commit's calls) roll back alone.
 */
export function nodeSql(db: DatabaseSync): SqlDb {
  let depth = 0;
  // node:sqlite binds typed arrays, not a bare ArrayBuffer.
  const bind = (params: SqlValue[]) =>
    params.map((value) => (value instanceof ArrayBuffer ? new Uint8Array(value) : value));
  return {
    all<T>(query: string, ...params: SqlValue[]): T[] {
      return db.prepare(query).all(...bind(params)) as T[];
    },
    run(query: string, ...params: SqlValue[]): number {
      return Number(db.prepare(query).run(...bind(params)).changes);
    },
    transaction<T>(fn: () => T): T {
      const savepoint = `lpa_${depth}`;
      db.exec(`SAVEPOINT ${savepoint}`);
      depth += 1;
      try {
        const result = fn();
        db.exec(`RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        try {
          db.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        } catch {
          // A failed RELEASE of the outermost savepoint may have ended the transaction already; the
          // first error is the one that explains what went wrong.
        }
        throw error;
      } finally {
        depth -= 1;
      }
    },
  };
}
