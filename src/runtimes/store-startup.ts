import type { HostPort } from '../host/port';
import type { LogRecord } from '../logs/line';
import type { SqlDb } from '../../storage/sql/sql';
import type { Store } from '../../storage/store';

/** The ids of the migrations a database has had applied, none for a new one. */
export function appliedMigrationIds(db: SqlDb): number[] {
  const exists = db.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'migrations'`).length > 0;
  return exists ? db.all<{ id: number }>('SELECT id FROM migrations ORDER BY id').map((row) => row.id) : [];
}

/** The `core` log's lines for a store that just opened: what it migrated, its version, its vault. */
export async function logStoreStart(host: HostPort, store: Store, db: SqlDb, migrationsBefore: readonly number[]): Promise<void> {
  const applied = appliedMigrationIds(db).filter((id) => !migrationsBefore.includes(id));
  const { store_id, db_version, vault } = store.system.info();
  const ts = Date.now();
  const records: LogRecord[] = [
    { ts, level: 'info', message: 'store opened', fields: { store_id, db_version, migrations_applied: applied.join(',') || 'none', vault: vault.state } },
  ];
  if (vault.state !== 'unlocked') records.push({ ts, level: 'warn', message: `vault is ${vault.state}; secrets cannot be read or written`, fields: { reason: vault.reason } });
  await host.logs.append('core', records).catch((error: unknown) => console.error('core log write failed:', String(error)));
}
