import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import { sealMac } from './anchors';
import { SYSTEM_ACTOR } from './entry';
import type { PurgeResult } from './schema';

/** Rows deleted per transaction, so that a first purge of millions of rows never becomes one huge write. */
const CHUNK = 10_000;

/**
 * Deletes every entry older than `cutoff` (epoch ms). Before each chunk goes, the checkpoint takes
 * the seq and hash of its newest row (MACed when there is an audit key), so verify continues from
 * there; anchors of days now gone go with them. The last chunk records the purge in the chain.
 */
export function purgeBefore(ctx: StoreContext, cutoff: number, retentionDays: number): PurgeResult {
  const { db } = ctx;
  const cut = first<{ seq: number }>(
    db,
    'SELECT seq FROM audit_log WHERE ts < ? ORDER BY ts DESC, seq DESC LIMIT 1',
    cutoff,
  );
  if (!cut) return { deleted: 0, checkpoint_seq: null };
  let deleted = 0;
  for (;;) {
    const end = db.transaction(() => {
      const oldest = first<{ seq: number }>(db, 'SELECT seq FROM audit_log ORDER BY seq LIMIT 1')!.seq;
      const last = first<{ seq: number; hash: string }>(
        db,
        'SELECT seq, hash FROM audit_log WHERE seq <= ? ORDER BY seq DESC LIMIT 1',
        Math.min(oldest + CHUNK - 1, cut.seq),
      )!;
      db.run(
        `INSERT INTO audit_checkpoint (id, seq, hash, mac) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, mac = excluded.mac`,
        last.seq,
        last.hash,
        ctx.proofs.mac ? sealMac(ctx.proofs.mac, last) : null,
      );
      deleted += db.run('DELETE FROM audit_log WHERE seq <= ?', last.seq);
      db.run('DELETE FROM audit_anchor WHERE seq <= ?', last.seq);
      if (last.seq >= cut.seq) {
        ctx.audit.append({ actor: SYSTEM_ACTOR, source: 'system', request_id: null, action: 'audit.purge' }, 'ok', {
          entity_type: 'audit_log',
          details: { deleted, retention_days: retentionDays, checkpoint_seq: last.seq },
        });
      }
      return last.seq;
    });
    if (end >= cut.seq) return { deleted, checkpoint_seq: end };
  }
}
