import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PLACED_TEAMS, readPlacement, teamPlacement } from '../../scripts/team-placement.mjs';

const dataRootOf = () => mkdtempSync(join(tmpdir(), 'lpa-placement-'));

/** Where `npm run start:team` keeps each team's object when it runs several workerd processes (scripts/team-placement.mjs). */
describe('the placement of teams over workerd processes', () => {
  it('sends a new team to the process with the fewest, counting creations under way, and keeps only teams the Worker made', async () => {
    const dataRoot = dataRootOf();
    const placement = await teamPlacement(dataRoot, 3);
    expect(readPlacement(dataRoot)).toEqual({ processes: 3, teams: {} });
    expect([placement.place('a-1'), placement.place('b-1'), placement.place('c-1'), placement.place('d-1')]).toEqual([
      0, 1, 2, 0,
    ]);
    // A second creation of a team under way goes where the first went, and each is settled.
    expect(placement.place('b-1')).toBe(1);
    expect(placement.home('b-1')).toBeNull();
    await placement.settle('a-1', true);
    void placement.settle('b-1', false); // refused: not placed
    void placement.settle('c-1', true);
    await placement.settle('d-1', true);
    expect(placement.home('b-1')).toBeNull();
    // The other creation of b-1, the operator's, made it.
    await placement.settle('b-1', true);
    expect(readPlacement(dataRoot)).toEqual({ processes: 3, teams: { 'a-1': 0, 'b-1': 1, 'c-1': 2, 'd-1': 0 } });
    expect(placement.place('e-1')).toBe(1);
    // A later start reads what was kept.
    const again = await teamPlacement(dataRoot, 3);
    expect(['a-1', 'b-1', 'c-1', 'd-1', 'e-1'].map((teamId) => again.home(teamId))).toEqual([0, 1, 2, 0, null]);
  });

  it('places no id the Worker would refuse: the first process answers those creations', async () => {
    const placement = await teamPlacement(dataRootOf(), 2);
    for (const teamId of ['x'.repeat(60_000), 'ab', 'Upper-case', 'under_score', '../etc', 'a'.repeat(64), ''])
      expect(placement.place(teamId), teamId.slice(0, 20)).toBeNull();
  });

  it(`names at most ${MAX_PLACED_TEAMS} teams, and writes them without holding up the thread`, async () => {
    const dataRoot = dataRootOf();
    const placement = await teamPlacement(dataRoot, 2);
    const ids = Array.from({ length: MAX_PLACED_TEAMS }, (_, i) => `team-${i}`);
    const writes = ids.map((teamId) => {
      expect(placement.place(teamId)).not.toBeNull();
      return placement.settle(teamId, true);
    });
    // Nothing was written while the creations were settled: the writes come after, off the requests' way.
    expect(readPlacement(dataRoot)).toEqual({ processes: 2, teams: {} });
    await Promise.all(writes);
    expect(Object.keys(readPlacement(dataRoot)!.teams)).toHaveLength(MAX_PLACED_TEAMS);
    // Past the bound, a creation goes unplaced to the first process, where every team no placement names is.
    expect(placement.place('one-more')).toBeNull();
    expect(placement.home('one-more')).toBeNull();
  });

  it('drops at its start what names no team: ids the Worker would refuse, processes it does not have', async () => {
    const dataRoot = dataRootOf();
    writeFileSync(
      join(dataRoot, 'placement.json'),
      JSON.stringify({ processes: 2, teams: { 'kept-a': 1, ['x'.repeat(60_000)]: 0, 'no-such-process': 5, Nope: 0 } }),
    );
    const placement = await teamPlacement(dataRoot, 2);
    expect(readPlacement(dataRoot)).toEqual({ processes: 2, teams: { 'kept-a': 1 } });
    expect(placement.home('kept-a')).toBe(1);
  });
});
