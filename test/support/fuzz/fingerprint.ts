import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { call } from '../api';
import { directFetcher } from '../direct-fetch';
import { inStore } from '../store';

const cell = (value: unknown) => (value instanceof ArrayBuffer ? bytesToHex(new Uint8Array(value)) : value);

/**
 * A digest of everything the store keeps, one per table (every table, so a new family is covered).
 * Audit entries of denials and failures are left out: a refused request is meant to leave exactly
 * those behind. The automation files on the host come as a list of names: other test files write
 * files into the same data root meanwhile, so only files a request names can be held against it.
 */
export async function storageFingerprint(): Promise<{ tables: Record<string, string>; files: string[] }> {
  const tables = await inStore(({ sql }) => {
    const names = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name);
    const out: Record<string, string> = {};
    for (const name of names) {
      const where = name === 'audit_log' ? " WHERE result = 'ok'" : '';
      const hash = sha256.create();
      let rows = 0;
      for (const row of sql.exec(`SELECT * FROM "${name}"${where}`)) {
        hash.update(utf8ToBytes(JSON.stringify(Object.values(row).map(cell))));
        rows += 1;
      }
      out[name] = `${rows} rows ${bytesToHex(hash.digest()).slice(0, 16)}`;
    }
    return out;
  });
  const files = await call('/api/v1/automation/files', { fetcher: directFetcher });
  return { tables, files: (files.json.items as { name: string }[]).map((f) => f.name) };
}
