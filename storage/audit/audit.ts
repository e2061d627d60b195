import type { AuditSeal } from '../../src/shared/schemas/audit-seal';
import { ApiError } from '../../src/shared/errors/api-error';
import type { StoreContext } from '../context';
import { commitSeal, sealDue, type SealDue } from './anchors';
import { GENESIS_HASH } from './chain';
import type { AuditFilters } from './filters';
import { pageSql, whereClause, type PageStart } from './query';
import { entryOf, type AuditRow } from './record';
import { purgeBefore } from './retention';
import { exportLine } from './export-format';
import { exportHead } from './export-head';
import type {
  AuditCheckpoint,
  AuditHashes,
  AuditPage,
  AuditPublicKey,
  AuditRecord,
  AuditStats,
  ExportExtent,
  ExportFormat,
  ExportHead,
  ExportPageSize,
  PurgeResult,
} from './schema';
import type { AuditSigner } from './signing';
import { verifySlice, type VerifyCursor, type VerifyStep } from './verify';
import { first } from '../sql/sql';
import { DAY_MS } from '../../src/shared/time';
import { utf8Length } from '../../src/shared/unicode';

/** Reading, verifying and maintaining the audit chain; appending is AuditLog's, inside every change. */
export class Audit {
  constructor(private readonly ctx: StoreContext) {}

  /** One page of entries matching the filters: newest first from `before_seq`, oldest first from `after_seq`. */
  list(filters: AuditFilters, start: PageStart, limit: number): AuditPage {
    const where = whereClause(this.ctx.db, filters, start);
    if (!where) return { items: [], next_seq: null };
    const order = start.after_seq === undefined ? 'DESC' : 'ASC';
    const rows = this.ctx.db.all<AuditRow & { prev_hash: string | null; anchor: string | null }>(
      pageSql(where, order),
      ...where.params,
      limit + 1,
    );
    const checkpoint = first<{ seq: number; hash: string }>(
      this.ctx.db,
      'SELECT seq, hash FROM audit_checkpoint WHERE id = 1',
    );
    const storeId = this.ctx.proofs.storeId();
    const items = rows.slice(0, limit).map((row): AuditRecord => {
      const anchor = row.anchor === null ? null : (JSON.parse(row.anchor) as { day: string; signature: string | null });
      return {
        ...entryOf(row),
        hash: row.hash,
        prev_hash:
          row.prev_hash ?? (row.seq === (checkpoint?.seq ?? 0) + 1 ? (checkpoint?.hash ?? GENESIS_HASH) : null),
        ...(anchor && { anchor: { day: anchor.day, store_id: storeId, signature: anchor.signature } }),
      };
    });
    return { items, next_seq: rows.length > limit ? items[items.length - 1]!.seq : null };
  }

  /** The seq and hash of the entries after `afterSeq`, oldest first (the witness's comparison). */
  hashes(afterSeq: number, limit: number): AuditHashes {
    const rows = this.ctx.db.all<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?',
      afterSeq,
      limit + 1,
    );
    const items = rows.slice(0, limit);
    return { items, next_after_seq: rows.length > limit ? items[items.length - 1]!.seq : null };
  }

  /** How many entries match the filters and the newest of them: an export pages up to that seq and no further. */
  extent(filters: AuditFilters): ExportExtent {
    const where = whereClause(this.ctx.db, filters);
    if (!where) return { count: 0, last_seq: 0 };
    return first<ExportExtent>(
      this.ctx.db,
      `SELECT count(*) AS count, coalesce(max(a.seq), 0) AS last_seq FROM audit_log a ${where.sql}`,
      ...where.params,
    )!;
  }

  /** The signed head that ends a JSONL export of `filters` up to `lastSeq` (storage/audit/export-head.ts). */
  exportHead(filters: AuditFilters, lastSeq: number): ExportHead {
    return exportHead(this.ctx.db, this.ctx.proofs, filters, lastSeq, this.ctx.now());
  }

  /**
   * The size of one page of an export, measured with the export's own line format, so that the
   * export knows its file's size before it sends a byte, without the entries crossing to the worker.
   */
  exportPageSize(filters: AuditFilters, format: ExportFormat, start: PageStart, limit: number): ExportPageSize {
    const page = this.list(filters, start, limit);
    const bytes = page.items.reduce((sum, record) => sum + utf8Length(exportLine(format, record)), 0);
    return { count: page.items.length, bytes, next_seq: page.next_seq };
  }

  /**
   * One slice of verify (storage/audit/verify.ts): `null` begins, each returned cursor continues.
   * Each slice is its own short store call, so other requests run between them.
   */
  verifySlice(cursor: VerifyCursor | null): VerifyStep {
    return verifySlice(this.ctx.db, this.ctx.proofs, this.ctx.now(), cursor);
  }

  stats(): AuditStats {
    return first<AuditStats>(this.ctx.db, 'SELECT count(*) AS entries, min(ts) AS oldest_ts FROM audit_log')!;
  }

  /** The head of the chain, signed now: what a witness keeps (docs/audit-format.md#signed-checkpoints). */
  checkpoint(): AuditCheckpoint {
    const signer = this.signer();
    const head = this.ctx.audit.head();
    const signed = { hash: head.hash, seq: head.seq, store_id: this.ctx.proofs.storeId(), ts: this.ctx.now() };
    return { ...signed, key_id: signer.keyId, signature: signer.sign(signed) };
  }

  publicKey(): AuditPublicKey {
    return this.signer().info();
  }

  /**
   * The day the daily job should seal now, if any (storage/audit/anchors.ts). The job has the host
   * record it, then calls `commitSeal`: the seal is on disk before its anchor commits.
   */
  sealDue(now: number): SealDue {
    return sealDue(this.ctx.db, this.ctx.proofs, now);
  }

  /** Writes the anchor of a seal the host has recorded; false when the chain no longer matches it. */
  commitSeal(seal: AuditSeal, now: number): boolean {
    this.ctx.proofs.remember(seal);
    return this.ctx.db.transaction(() => commitSeal(this.ctx.db, this.ctx.proofs, seal, now));
  }

  /** Deletes entries older than the retention, keeping the hash at the cut; the daily job. */
  purge(now: number, retentionDays: number): PurgeResult {
    return purgeBefore(this.ctx, now - retentionDays * DAY_MS, retentionDays);
  }

  private signer(): AuditSigner {
    const signer = this.ctx.proofs.signer;
    if (!signer) throw new ApiError('audit.signing_key_missing');
    return signer;
  }
}
