import type { StoreContext } from '../context';
import { sealFinishedDays } from './anchors';
import { GENESIS_HASH } from './chain';
import { DAY_MS } from '../../src/shared/time';
import { dayIndex } from './days';
import type { AuditFilters } from './filters';
import { pageSql, whereClause, type PageStart } from './query';
import { entryOf, type AuditRow } from './record';
import { purgeBefore } from './retention';
import { exportLine } from './export-format';
import type { AuditPage, AuditRecord, AuditStats, AuditVerification, ExportExtent, ExportFormat, ExportPageSize, PurgeResult } from './schema';
import { verifyChain } from './verify';
import { first } from '../sql/sql';
import { utf8Length } from '../../src/shared/unicode';

/** Reading, verifying and maintaining the audit chain; appending is AuditLog's, inside every change. */
export class Audit {
  constructor(private readonly ctx: StoreContext) {}

  /** One page of entries matching the filters: newest first from `before_seq`, oldest first from `after_seq`. */
  list(filters: AuditFilters, start: PageStart, limit: number): AuditPage {
    const where = whereClause(this.ctx.db, filters, start);
    if (!where) return { items: [], next_seq: null };
    const order = start.after_seq === undefined ? 'DESC' : 'ASC';
    const rows = this.ctx.db.all<AuditRow & { prev_hash: string | null }>(pageSql(where, order), ...where.params, limit + 1);
    const checkpoint = first<{ seq: number; hash: string }>(this.ctx.db, 'SELECT seq, hash FROM audit_checkpoint WHERE id = 1');
    const items = rows.slice(0, limit).map((row): AuditRecord => ({
      ...entryOf(row),
      hash: row.hash,
      prev_hash: row.prev_hash ?? (row.seq === (checkpoint?.seq ?? 0) + 1 ? (checkpoint?.hash ?? GENESIS_HASH) : null),
    }));
    return { items, next_seq: rows.length > limit ? items[items.length - 1]!.seq : null };
  }

  /** How many entries match the filters and the newest of them: an export pages up to that seq and no further. */
  extent(filters: AuditFilters): ExportExtent {
    const where = whereClause(this.ctx.db, filters);
    if (!where) return { count: 0, last_seq: 0 };
    return first<ExportExtent>(
      this.ctx.db, `SELECT count(*) AS count, coalesce(max(a.seq), 0) AS last_seq FROM audit_log a ${where.sql}`, ...where.params,
    )!;
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

  verify(): AuditVerification {
    return verifyChain(this.ctx.db, this.ctx.auditKey, this.ctx.now());
  }

  stats(): AuditStats {
    return first<AuditStats>(this.ctx.db, 'SELECT count(*) AS entries, min(ts) AS oldest_ts FROM audit_log')!;
  }

  /** Anchors every finished day (before the UTC day of `now`) not yet sealed; the daily job. */
  seal(now: number): string[] {
    return this.ctx.db.transaction(() => sealFinishedDays(this.ctx.db, this.ctx.auditKey, dayIndex(now) * DAY_MS, now));
  }

  /** Deletes entries older than the retention, keeping the hash at the cut; the daily job. */
  purge(now: number, retentionDays: number): PurgeResult {
    return purgeBefore(this.ctx, now - retentionDays * DAY_MS, retentionDays);
  }
}
