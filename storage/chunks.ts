import type { SqlDb } from './sql/sql';

/**
 * A Durable Object row or value holds at most 2 MB, and a sealed global value, flow document or
 * share bundle can be larger. Such text is kept here in pieces under an owner key (`global:<name>`,
 * `flow:<id>`, `share:<id>`) and put back together on read.
 */
const CHUNK_CHARS = 500_000;

export function putChunks(db: SqlDb, owner: string, text: string): void {
  deleteChunks(db, owner);
  for (let seq = 0, at = 0; at < text.length || seq === 0; seq++, at += CHUNK_CHARS) {
    db.run(
      'INSERT INTO automation_chunks (owner, seq, data) VALUES (?, ?, ?)',
      owner,
      seq,
      text.slice(at, at + CHUNK_CHARS),
    );
  }
}

export function getChunks(db: SqlDb, owner: string): string | null {
  const rows = db.all<{ data: string }>('SELECT data FROM automation_chunks WHERE owner = ? ORDER BY seq', owner);
  return rows.length === 0 ? null : rows.map((r) => r.data).join('');
}

export function deleteChunks(db: SqlDb, owner: string): void {
  db.run('DELETE FROM automation_chunks WHERE owner = ?', owner);
}
