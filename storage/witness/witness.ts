import { teamHeadValue } from '../../src/shared/schemas/team';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import { WITNESS_LIMIT, type PinnedCheckpoint, type TeamHead, type WitnessPage, type WitnessSummary } from './schema';

/**
 * A joined machine as a witness of its team's chain (docs/teams.md#audit-across-machines): each
 * distinct head the team answered with, the newest 10,000 of them, and the newest signed checkpoint
 * with the key pinned the first time. All of it is kept per team link (`team`, the team URL): a
 * machine that joins another team keeps what it saw of the first and never compares the other with
 * it. Not audited: these rows are what the machine saw, not changes anyone made, and they are
 * compared with the team, never trusted over it.
 */
export class Witness {
  /** The last head written, with its team: a forwarded request whose answer names it again writes nothing. */
  private last: string | null = null;

  constructor(private readonly ctx: StoreContext) {}

  see(team: string, head: TeamHead): void {
    const key = `${team} ${teamHeadValue(head)}`;
    if (key === this.last) return;
    this.last = key;
    this.ctx.db.transaction(() => {
      this.ctx.db.run(
        'INSERT OR IGNORE INTO team_heads (team, seq, hash, seen_at) VALUES (?, ?, ?, ?)',
        team,
        head.seq,
        head.hash,
        this.ctx.now(),
      );
      // Bounded per team: past the limit, the oldest go (a rare delete of a batch, not one per request).
      const { n } = first<{ n: number }>(this.ctx.db, 'SELECT count(*) AS n FROM team_heads WHERE team = ?', team)!;
      if (n > WITNESS_LIMIT + WITNESS_LIMIT / 10) {
        this.ctx.db.run(
          'DELETE FROM team_heads WHERE team = ? AND seq < (SELECT seq FROM team_heads WHERE team = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)',
          team,
          team,
          WITNESS_LIMIT - 1,
        );
      }
    });
  }

  summary(team: string): WitnessSummary {
    const counts = first<{ heads: number; oldest_seq: number | null }>(
      this.ctx.db,
      'SELECT count(*) AS heads, min(seq) AS oldest_seq FROM team_heads WHERE team = ?',
      team,
    )!;
    const newest = first<{ seq: number; hash: string; seen_at: number }>(
      this.ctx.db,
      'SELECT seq, hash, seen_at FROM team_heads WHERE team = ? ORDER BY seq DESC, seen_at DESC LIMIT 1',
      team,
    );
    return { ...counts, newest: newest ?? null, checkpoint: this.checkpoint(team) };
  }

  /** Witnessed heads of `team` oldest first, after `afterSeq`: what verify compares with the team, page by page. */
  heads(team: string, afterSeq: number, limit: number): WitnessPage {
    const rows = this.ctx.db.all<TeamHead>(
      'SELECT seq, hash FROM team_heads WHERE team = ? AND seq > ? ORDER BY seq, hash LIMIT ?',
      team,
      afterSeq,
      limit + 1,
    );
    const items = rows.slice(0, limit);
    return { items, next_after_seq: rows.length > limit ? items[items.length - 1]!.seq : null };
  }

  checkpoint(team: string): PinnedCheckpoint | null {
    const row = first<Omit<PinnedCheckpoint, 'checkpoint'> & { checkpoint: string }>(
      this.ctx.db,
      'SELECT key_id, public_key_pem, pinned_at, checkpoint, fetched_at FROM team_checkpoints WHERE team = ?',
      team,
    );
    return row ? { ...row, checkpoint: JSON.parse(row.checkpoint) as PinnedCheckpoint['checkpoint'] } : null;
  }

  /**
   * Keeps a checkpoint the caller verified with the pinned key (or with the key it pins now, the
   * first time); the pin itself never changes here.
   */
  keep(team: string, pinned: PinnedCheckpoint): void {
    this.ctx.db.run(
      `INSERT INTO team_checkpoints (team, key_id, public_key_pem, checkpoint, pinned_at, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (team) DO UPDATE SET checkpoint = excluded.checkpoint, fetched_at = excluded.fetched_at`,
      team,
      pinned.key_id,
      pinned.public_key_pem,
      JSON.stringify(pinned.checkpoint),
      pinned.pinned_at,
      pinned.fetched_at,
    );
  }
}
