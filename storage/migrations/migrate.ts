import type { SqlDb } from '../sql/sql';

export interface Migration {
  id: number;
  name: string;
  statements: string[];
}

/** What one `migrate` did: the migrations it applied (none when the database was current), and the `db_version` after them. */
export interface MigrationReport {
  applied: { id: number; name: string }[];
  version: number;
}

/**
 * Applies every pending migration in one transaction. The store's `db_version` is the number applied
 * in all. A table, not `PRAGMA user_version`, because Durable Objects refuse pragmas.
 */
export function migrate(db: SqlDb, migrations: readonly Migration[], now: number): MigrationReport {
  return db.transaction(() => {
    db.run(`CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const before = new Set(db.all<{ id: number }>('SELECT id FROM migrations').map((r) => r.id));
    const pending = migrations.filter((migration) => !before.has(migration.id));
    for (const migration of pending) {
      for (const statement of migration.statements) db.run(statement);
      db.run('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)', migration.id, migration.name, now);
    }
    return { applied: pending.map(({ id, name }) => ({ id, name })), version: before.size + pending.length };
  });
}
