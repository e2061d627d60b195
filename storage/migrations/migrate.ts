import type { SqlDb } from '../sql/sql';

export interface Migration {
  id: number;
  name: string;
  statements: string[];
}

/**
 * A migration list as the store may run it: every id a positive integer above the one before it.
 * A migration is known by its id alone (what `migrations` records), so a duplicate id would never
 * run and an id out of order would run after a later schema: the list is refused when it is
 * loaded, before any database sees it.
 */
export function migrationList(migrations: readonly Migration[]): readonly Migration[] {
  migrations.reduce((previous, { id, name }) => {
    if (!Number.isInteger(id) || id < 1) throw new Error(`migration ${name}: id ${id} is not a positive integer`);
    if (id === previous) throw new Error(`migration ${name}: id ${id} is a duplicate`);
    if (id < previous) throw new Error(`migration ${name}: id ${id} comes after id ${previous}`);
    return id;
  }, 0);
  return migrations;
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
    db.run(
      `CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
    );
    const before = new Set(db.all<{ id: number }>('SELECT id FROM migrations').map((r) => r.id));
    const pending = migrations.filter((migration) => !before.has(migration.id));
    for (const migration of pending) {
      for (const statement of migration.statements) db.run(statement);
      db.run('INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)', migration.id, migration.name, now);
    }
    return { applied: pending.map(({ id, name }) => ({ id, name })), version: before.size + pending.length };
  });
}
