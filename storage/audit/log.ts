import { first, type SqlDb } from '../sql';
import { categoryOf } from './actions';
import { chainHash, GENESIS_HASH } from './chain';
import type { AuditContext, AuditEntry, AuditResult, AuditSubject } from './entry';

export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Appends entries to the hash chain. Callers run `append` inside the same synchronous transaction
 * as the change it records, so the head that is read is the head that is extended.
 */
export class AuditLog {
  constructor(
    private readonly db: SqlDb,
    private readonly now: () => number,
  ) {}

  head(): ChainHead {
    return (
      first<ChainHead>(this.db, 'SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1') ??
      first<ChainHead>(this.db, 'SELECT seq, hash FROM audit_checkpoint WHERE id = 1') ?? { seq: 0, hash: GENESIS_HASH }
    );
  }

  append(ctx: AuditContext, result: AuditResult, subject: AuditSubject = {}, errorCode: string | null = null): AuditEntry {
    const head = this.head();
    const entry: AuditEntry = {
      seq: head.seq + 1,
      id: crypto.randomUUID(),
      ts: this.now(),
      actor_type: ctx.actor.type,
      actor_id: ctx.actor.id,
      actor_label: ctx.actor.label,
      source: ctx.source,
      action: ctx.action,
      entity_type: subject.entity_type ?? null,
      entity_id: subject.entity_id ?? null,
      entity_no: subject.entity_no ?? null,
      result,
      error_code: errorCode,
      details: subject.details ?? null,
      request_id: ctx.request_id,
    };
    const hash = chainHash(head.hash, entry);
    this.db.run(
      `INSERT INTO audit_log (seq, id, ts, actor_type, actor_id, actor_label, source, action, category,
        entity_type, entity_id, entity_no, result, error_code, details, request_id, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      entry.seq, entry.id, entry.ts, entry.actor_type, entry.actor_id, entry.actor_label, entry.source,
      entry.action, categoryOf(entry.action), entry.entity_type, entry.entity_id, entry.entity_no,
      entry.result, entry.error_code, entry.details === null ? null : JSON.stringify(entry.details),
      entry.request_id, hash,
    );
    return entry;
  }
}
