import type { SqlDb } from '../sql/sql';

export interface Migration {
  id: number;
  name: string;
  statements: string[];
}

/**
 * Applies every pending migration in one transaction and returns the number applied in all, which is
 * the store's `db_version`. A table, not `PRAGMA user_version`, because Durable Objects refuse pragmas.
 */
export function migrate(db: SqlDb, migrations: readonly Migration[], now: number): number {
  return db.transaction(() => {
    db.run(`CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const applied = new Set(db.all<{ id: number }>('SELECT id FROM migrations').map((r) => r.id));
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      for (const statement of migration.statements) db.run(statement);
      db.run('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)', migration.id, migration.name, now);
    }
    return db.all<{ n: number }>('SELECT count(*) AS n FROM migrations')[0]!.n;
  });
}
