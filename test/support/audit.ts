import { afterEach, beforeEach, expect } from 'vitest';
import { chainHash, GENESIS_HASH } from '../../storage/audit/chain';
import { entryOf, type AuditRow } from '../../storage/audit/record';
import type { AuditCheckpoint, AuditPublicKey, AuditVerification } from '../../storage/audit/schema';
import type { SqlValue } from '../../storage/sql/sql';
import { call } from './api';
import { decodeBase64Text } from './csv';
import { inStore, sql } from './store';

export const DAY = 86_400_000;

export async function verify() {
  const res = await call('/api/v1/audit/verify');
  if (res.status !== 200) throw new Error(`verify failed: ${res.text}`);
  return res.json as AuditVerification;
}

/** The whole log as a JSONL export, its text. */
export const jsonlExport = async () =>
  decodeBase64Text((await call('/api/v1/audit/export?format=jsonl')).json.content_base64);
export const publicKey = async () => (await call('/api/v1/audit/public-key')).json as AuditPublicKey;
export const checkpoint = async () => (await call('/api/v1/audit/checkpoint')).json as AuditCheckpoint;
export const storeId = async () =>
  (await sql<{ value: string }>(`SELECT value FROM meta WHERE key = 'store_id'`))[0]!.value;

/** Recomputes every hash from `fromSeq` on, in each row's own form, as someone with the database file can. */
export function rehashFrom(fromSeq: number): Promise<void> {
  return inStore(({ sql }) => {
    const rows = sql.exec('SELECT * FROM audit_log ORDER BY seq').toArray() as unknown as AuditRow[];
    let prev = GENESIS_HASH;
    for (const row of rows) {
      if (row.seq >= fromSeq)
        sql.exec('UPDATE audit_log SET hash = ? WHERE seq = ?', (row.hash = chainHash(prev, entryOf(row))), row.seq);
      prev = row.hash;
    }
  });
}

/** One audited change through the API (a log-retention write); returns the seq of its entry. */
export async function auditedWrite(days = 7): Promise<number> {
  const res = await call('/api/v1/settings/logs', { method: 'PUT', body: { retention_days: days } });
  if (res.status !== 200) throw new Error(`write failed: ${res.text}`);
  const [row] = await sql<{ seq: number }>(
    `SELECT seq FROM audit_log WHERE request_id = ?`,
    res.headers.get('x-request-id')!,
  );
  return row!.seq;
}

/** The daily run; only the audit jobs' reports, as other families' jobs (log retention) run in it too. */
export async function runDaily(now: number) {
  const reports = await inStore(({ instance }) => instance.runDaily(now));
  return reports.filter((report) => report.name.startsWith('audit.'));
}

type Tables = Record<'audit_log' | 'audit_anchor' | 'audit_checkpoint', Record<string, SqlValue>[]>;

/** Every row of the audit tables, to put back after a test has tampered with them. */
export async function snapshot(): Promise<Tables> {
  return {
    audit_log: await sql('SELECT * FROM audit_log ORDER BY seq'),
    audit_anchor: await sql('SELECT * FROM audit_anchor ORDER BY day'),
    audit_checkpoint: await sql('SELECT * FROM audit_checkpoint'),
  };
}

export function restore(tables: Tables): Promise<void> {
  return inStore(({ storage, sql }) => {
    storage.transactionSync(() => {
      for (const [table, rows] of Object.entries(tables)) {
        sql.exec(`DELETE FROM ${table}`);
        for (const row of rows) {
          const columns = Object.keys(row);
          sql.exec(
            `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
            ...columns.map((c) => row[c]!),
          );
        }
      }
    });
  });
}

/** Tests of the enclosing describe may tamper with the audit tables: each is undone, and the chain verifies again. */
export function undoTamperingAfterEach(): void {
  let saved: Tables;
  beforeEach(async () => {
    saved = await snapshot();
  });
  afterEach(async () => {
    await restore(saved);
    expect((await verify()).ok).toBe(true);
  });
}
