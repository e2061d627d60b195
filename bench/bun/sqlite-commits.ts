/**
 * Run by Bun: `bun bench/bun/sqlite-commits.ts <dir> <seconds>`. The reference for durable writes:
 * single-row commits on SQLite in WAL mode with synchronous=FULL, on the disk of the data root.
 * Prints {commits, seconds, per_second} as one JSON line.
 */
import { Database } from 'bun:sqlite';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const [dir, secondsArg] = process.argv.slice(2);
const file = join(dir!, 'bench-reference.sqlite');
const db = new Database(file, { create: true, strict: true });
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, value TEXT NOT NULL)');
const insert = db.query('INSERT INTO t (value) VALUES (?)');
const limitMs = Number(secondsArg) * 1000;
const started = performance.now();
let commits = 0;
// Autocommit: every statement is its own transaction, so every row is one fsync'ed commit.
while (performance.now() - started < limitMs) {
  insert.run(`row ${commits}`);
  commits++;
}
const seconds = (performance.now() - started) / 1000;
db.close();
for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
console.log(JSON.stringify({ commits, seconds, per_second: commits / seconds }));
