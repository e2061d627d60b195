import { first, type SqlDb } from '../sql/sql';
import { categoryOf } from './actions';
import { openFrom } from './anchors';
import { CHAIN_VERSION, chainHash, GENESIS_HASH, type StoredEntry } from './chain';
import type { AuditContext, AuditSubject } from './entry';
import type { AuditResult } from './schema';

/**
 * Largest details kept, as JSON characters. It bounds every entry, so a page of 1000 entries stays
 * far inside the Durable Object RPC message limit and an export's size is predictable.
 */
export const MAX_DETAILS_CHARS = 16_384;

/** Details as they are stored and hashed: a JSON round trip, so a re-read entry hashes the same. */
function storedDetails(details: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!details) return null;
  const json = JSON.stringify(details);
  return json.length > MAX_DETAILS_CHARS
    ? { truncated: true, chars: json.length }
    : (JSON.parse(json) as Record<string, unknown>);
}

export interface ChainHead {
  seq: number;
  hash: string;
  /** The newest entry's time; null when the chain continues from the checkpoint or genesis. */
  ts: number | null;
}

/** The chain's newest entry, as a team shows it to the machines that call it (`X-LPA-Team-Head`). */
export type ChainTip = Pick<ChainHead, 'seq' | 'hash'>;

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
      first<ChainHead>(this.db, 'SELECT seq, hash, ts FROM audit_log ORDER BY seq DESC LIMIT 1') ??
      first<ChainHead>(this.db, 'SELECT seq, hash, NULL AS ts FROM audit_checkpoint WHERE id = 1') ?? {
        seq: 0,
        hash: GENESIS_HASH,
        ts: null,
      }
    );
  }

  append(
    ctx: AuditContext,
    result: AuditResult,
    subject: AuditSubject = {},
    errorCode: string | null = null,
  ): StoredEntry {
    const head = this.head();
    // Times never go backwards along the chain and never into a sealed day, even if the clock does:
    // the ts filters and the anchors rely on both.
    const ts = Math.max(this.now(), head.ts ?? 0, openFrom(this.db));
    const entry: StoredEntry = {
      seq: head.seq + 1,
      id: crypto.randomUUID(),
      ts,
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
      details: storedDetails(ctx.via ? { ...subject.details, via: ctx.via } : subject.details),
      request_id: ctx.request_id,
      category: categoryOf(ctx.action),
      v: CHAIN_VERSION,
    };
    const hash = chainHash(head.hash, entry);
    this.db.run(
      `INSERT INTO audit_log (seq, id, ts, actor_type, actor_id, actor_label, source, action, category,
        entity_type, entity_id, entity_no, result, error_code, details, request_id, hash, v)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      entry.seq,
      entry.id,
      entry.ts,
      entry.actor_type,
      entry.actor_id,
      entry.actor_label,
      entry.source,
      entry.action,
      entry.category,
      entry.entity_type,
      entry.entity_id,
      entry.entity_no,
      entry.result,
      entry.error_code,
      entry.details === null ? null : JSON.stringify(entry.details),
      entry.request_id,
      hash,
      entry.v,
    );
    return entry;
  }
}
