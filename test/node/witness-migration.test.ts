/**
 * Migration 9 on a store that kept a witness under migration 8 (storage/migrations/009-witness-per-team.ts):
 * the heads and the pinned checkpoint stay, under the link `''` that no team URL is, so that no team
 * is ever compared with what the machine saw of whichever team it was in then.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../storage/migrations/list';
import { migrate } from '../../storage/migrations/migrate';
import { nodeSql } from '../../storage/sql/node-sql';

describe('migration 9, the witness per team link', () => {
  it("keeps migration 8's heads and pinned checkpoint under the link '' and drops the old tables", () => {
    const db = nodeSql(new DatabaseSync(':memory:'));
    expect(
      migrate(
        db,
        MIGRATIONS.filter(({ id }) => id <= 8),
        1,
      ).version,
    ).toBe(8);
    db.run(
      'INSERT INTO team_heads (seq, hash, seen_at) VALUES (?, ?, ?), (?, ?, ?)',
      3,
      'a'.repeat(64),
      10,
      5,
      'b'.repeat(64),
      11,
    );
    db.run(
      'INSERT INTO team_checkpoint (id, key_id, public_key_pem, checkpoint, pinned_at, fetched_at) VALUES (1, ?, ?, ?, ?, ?)',
      'k'.repeat(64),
      'PEM',
      '{"seq":5}',
      10,
      11,
    );

    // Up to migration 10, the runs, which came next: the later ones do not touch the witness.
    expect(
      migrate(
        db,
        MIGRATIONS.filter(({ id }) => id <= 10),
        2,
      ),
    ).toEqual({
      applied: [
        { id: 9, name: 'witness-per-team' },
        { id: 10, name: 'runs' },
      ],
      version: 10,
    });
    expect(db.all('SELECT team, seq, hash, seen_at FROM team_heads ORDER BY seq')).toEqual([
      { team: '', seq: 3, hash: 'a'.repeat(64), seen_at: 10 },
      { team: '', seq: 5, hash: 'b'.repeat(64), seen_at: 11 },
    ]);
    expect(db.all('SELECT * FROM team_checkpoints')).toEqual([
      {
        team: '',
        key_id: 'k'.repeat(64),
        public_key_pem: 'PEM',
        checkpoint: '{"seq":5}',
        pinned_at: 10,
        fetched_at: 11,
      },
    ]);
    expect(db.all(`SELECT name FROM sqlite_master WHERE name IN ('team_checkpoint', 'team_heads_by_team')`)).toEqual(
      [],
    );
    // One head per team link: the same seq and hash may be kept for two links.
    db.run(
      'INSERT INTO team_heads (team, seq, hash, seen_at) VALUES (?, ?, ?, ?)',
      'https://lpa.example.com/teams/acme',
      3,
      'a'.repeat(64),
      12,
    );
    expect(db.all<{ n: number }>('SELECT count(*) AS n FROM team_heads WHERE seq = 3')[0]!.n).toBe(2);
  });
});
