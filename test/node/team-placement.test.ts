import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlacement, teamPlacement } from '../../scripts/team-placement.mjs';

/** Where `npm run start:team` keeps each team's object when it runs several workerd processes (scripts/team-placement.mjs). */
describe('the placement of teams over workerd processes', () => {
  it('sends a new team to the process with the fewest, counting creations under way, and keeps only what may exist', () => {
    const dataRoot = mkdtempSync(join(tmpdir(), 'lpa-placement-'));
    const placement = teamPlacement(dataRoot, 3);
    expect(readPlacement(dataRoot)).toEqual({ processes: 3, teams: {} });
    expect([placement.place('a'), placement.place('b'), placement.place('c'), placement.place('d')]).toEqual([
      0, 1, 2, 0,
    ]);
    expect(placement.home('b')).toBe(1);
    placement.settle('a', true);
    placement.settle('b', false); // refused: not placed, its process is free again
    placement.settle('c', true);
    placement.settle('d', true);
    expect(placement.home('b')).toBeNull();
    expect(readPlacement(dataRoot)).toEqual({ processes: 3, teams: { a: 0, c: 2, d: 0 } });
    expect(placement.place('e')).toBe(1);
    // A later start reads what was kept.
    const again = teamPlacement(dataRoot, 3);
    expect([again.home('a'), again.home('c'), again.home('d'), again.home('e')]).toEqual([0, 2, 0, null]);
  });
});
