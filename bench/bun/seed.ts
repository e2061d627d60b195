/**
 * Run by Bun while the service is stopped: `bun bench/seed.ts <data root> <profiles> <audit entries>`.
 * Opens the Durable Object's own SQLite file and writes through the store's own code (Profiles.create,
 * AuditLog.append), many changes per transaction. Prints what it wrote as one JSON line.
 */
import { Database } from 'bun:sqlite';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditAction } from '../../storage/audit/actions';
import type { AuditContext } from '../../storage/audit/entry';
import { AuditLog } from '../../storage/audit/log';
import { bunSql } from '../../storage/sql/bun-sql';
import { hostKeys } from '../../storage/keys';
import { openStore } from '../../storage/store';
import { nodeHost } from '../../src/host/node/node-host';
import { EXPORT_ACTIONS, SEED_GLOBALS } from '../seed-plan';

const BATCH = 5_000;

const [dataRoot, profilesArg, auditArg, exportArg] = process.argv.slice(2);
const profiles = Number(profilesArg);
const auditEntries = Number(auditArg);
const exportPart = Number(exportArg);

/** The store file workerd keeps for the `lpa-store` namespace (one object: the store). */
function storeFile(root: string): string {
  const dir = join(root, 'store', 'lpa-store');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one store file in ${dir}, found ${files.join(', ') || 'none'}`);
  return join(dir, files[0]!);
}

const context = (action: AuditAction): AuditContext => ({
  actor: { type: 'admin', id: null, label: 'bench seed' },
  source: 'api',
  request_id: null,
  action,
});

const database = new Database(storeFile(dataRoot!), { strict: true });
const sql = bunSql(database);
const keySource = hostKeys(nodeHost(dataRoot!));
const { store } = await openStore(sql, keySource);
const log = new AuditLog(sql, Date.now);

/** Runs `count` steps in transactions of BATCH steps. */
function batched(count: number, step: (i: number) => void): void {
  for (let start = 0; start < count; start += BATCH) {
    sql.transaction(() => {
      for (let i = start; i < Math.min(count, start + BATCH); i++) step(i);
    });
  }
}

const started = performance.now();
const existing = store.profiles.count();
batched(profiles - existing, (i) =>
  store.profiles.create(context('profiles.create'), { name: `bench profile ${existing + i}` }, null),
);
// Every audited change of this store writes one entry; the rest are globals entries, with the
// newest ones split between the export actions, exportPart each.
const writes = auditEntries - (profiles - existing) - EXPORT_ACTIONS.length * exportPart;
const entry = (action: AuditAction, i: number) =>
  log.append(context(action), 'ok', {
    entity_type: 'global',
    entity_id: `bench_${i % SEED_GLOBALS}`,
    details: { revision: 1 + Math.floor(i / SEED_GLOBALS), bytes: 32 },
  });
batched(writes, (i) => entry('globals.write', i));
for (const action of EXPORT_ACTIONS) batched(exportPart, (i) => entry(action, i));
database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
database.close();
console.log(JSON.stringify({ profiles, audit_written: auditEntries, seconds: (performance.now() - started) / 1000 }));
