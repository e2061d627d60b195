/**
 * Which workerd process holds each team's Durable Object when `npm run start:team` runs several
 * (docs/teams.md#run-it-locally): chosen when the operator creates the team (the process with the
 * fewest teams, the first of them on a tie) and kept in the data root's `placement.json` with the
 * number of processes, so that a restart finds every team where it was.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PLACEMENT_FILE = 'placement.json';

/** What the data root keeps: `{ processes, teams: { <team id>: <process index> } }`, or null before its first start. */
export function readPlacement(dataRoot) {
  const path = join(dataRoot, PLACEMENT_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/** The placement of `dataRoot`'s teams over `processes` processes, made there when it has none. */
export function teamPlacement(dataRoot, processes) {
  const path = join(dataRoot, PLACEMENT_FILE);
  const placed = new Map(Object.entries(readPlacement(dataRoot)?.teams ?? {}));
  /** Creations under way: a second creation of the same team meanwhile goes where the first went. */
  const pending = new Map();
  const save = () => {
    // Written whole and renamed over the old one: a stop mid-write leaves the old placement, never half of one.
    writeFileSync(`${path}.tmp`, `${JSON.stringify({ processes, teams: Object.fromEntries(placed) })}\n`, {
      mode: 0o600,
    });
    renameSync(`${path}.tmp`, path);
  };
  if (!existsSync(path)) save();

  return {
    /** The process of a placed team (or one being created), else null: no process has it. */
    home: (teamId) => placed.get(teamId) ?? pending.get(teamId) ?? null,
    /** Where a creation of a team not placed yet goes: the process with the fewest teams. */
    place(teamId) {
      const counts = Array.from({ length: processes }, () => 0);
      for (const index of [...placed.values(), ...pending.values()]) counts[index] += 1;
      const index = counts.indexOf(Math.min(...counts));
      pending.set(teamId, index);
      return index;
    },
    /**
     * The creation's outcome: `kept` when the team may now exist there (created, or the answer was
     * lost or a server error), so it is placed for good; a refusal (4xx) places nothing, so that
     * failed creations cannot grow the file.
     */
    settle(teamId, kept) {
      const index = pending.get(teamId);
      pending.delete(teamId);
      if (!kept || index === undefined || placed.has(teamId)) return;
      placed.set(teamId, index);
      save();
    },
  };
}
