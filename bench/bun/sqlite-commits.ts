/**
 * Run by Bun: `bun bench/bun/sqlite-commits.ts <dir> <seconds> <row|audited>`. Commits per second
 * on SQLite in WAL mode with synchronous=FULL, in a fresh file on the disk of the data root:
 * - `row`: one single-row INSERT per commit (the reference of the audited write);
 * - `audited`: one `Store.globals.write` per commit, in process (no HTTP, no RPC): what one audited
 *   write costs the database itself (the value row, its chunk and an audit entry with its indexes).
 * Prints {commits, seconds, per_second} as one JSON line.
 */
import { Database } from 'bun:sqlite';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bunSql } from '../../storage/sql/bun-sql';
import { openStore } from '../../storage/store';

const [dir, secondsArg, kind] = process.argv.slice(2);
const file = join(dir!, `bench-${kind}.sqlite`);
const db = new Database(file, { create: true, strict: true });
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');

async function committer(): Promise<(i: number) => void> {
  if (kind === 'row') {
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT NOT NULL)');
    const insert = db.query('INSERT INTO t (value) VALUES (?)');
    // Autocommit: every statement is its own transaction, so every row is one fsync'ed commit.
    return (i) => insert.run(`row ${i}`);
  }
  const key = crypto.getRandomValues(new Uint8Array(32));
  const { store } = await openStore(bunSql(db), async () => ({
    vault: key,
    vaultReason: null,
    mac: key,
    signing: key,
    seals: [],
  }));
  const audit = {
    actor: { type: 'token', id: 'bench', label: 'bench' },
    source: 'api',
    request_id: null,
    action: 'globals.write',
  } as const;
  const value = 'x'.repeat(64);
  return (i) => void store.globals.write(audit, `bench_${i % 50}`, { value, expected_revision: Math.floor(i / 50) });
}

const commit = await committer();
const limitMs = Number(secondsArg) * 1000;
const started = performance.now();
let commits = 0;
while (performance.now() - started < limitMs) commit(commits++);
const seconds = (performance.now() - started) / 1000;
db.close();
for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
console.log(JSON.stringify({ commits, seconds, per_second: commits / seconds }));
