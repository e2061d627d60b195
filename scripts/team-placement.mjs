/**
 * Which workerd process holds each team's Durable Object when `npm run start:team` runs several
 * (docs/teams.md#run-it-locally): chosen when the operator creates the team (the process with the
 * fewest teams, the first of them on a tie) and kept in the data root's `placement.json` with the
 * number of processes, so that a restart finds every team where it was.
 *
 * Anyone may send a creation, so what is kept is bounded by what only the operator can do: a team is
 * placed once the Worker answered its creation 201, or 409 `team.exists` where it was sent (both
 * only after the operator token was checked; the 409 finds a team whose 201 was lost), under a valid
 * id, and at most MAX_PLACED_TEAMS of them. The file is written off the requests' way: asynchronously,
 * one write at a time, each with every change made before it began.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// TypeScript, which Node loads by stripping its types (./start-team.mjs checks that it can).
import { TEAM_ID_PATTERN } from '../src/shared/team-path.ts';

export const PLACEMENT_FILE = 'placement.json';

/**
 * The most teams the file names (under 1 MB of it). A creation past them goes to the first process
 * unplaced, where every team no placement names is looked for: it is still found, and the file stops
 * growing.
 */
export const MAX_PLACED_TEAMS = 10_000;

const TEAM_ID = new RegExp(`^${TEAM_ID_PATTERN}$`);

/** What the data root keeps: `{ processes, teams: { <team id>: <process index> } }`, or null before its first start. */
export function readPlacement(dataRoot) {
  const path = join(dataRoot, PLACEMENT_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/**
 * The placement of `dataRoot`'s teams over `processes` processes, written there first when it has
 * none, or when it names what can be no team there (an id the Worker would refuse, a process it does
 * not have: what an earlier version kept of creations that never succeeded).
 */
export async function teamPlacement(dataRoot, processes) {
  const path = join(dataRoot, PLACEMENT_FILE);
  const kept = Object.entries(readPlacement(dataRoot)?.teams ?? {});
  const placed = new Map(
    kept.filter(
      ([teamId, index]) => TEAM_ID.test(teamId) && Number.isInteger(index) && index >= 0 && index < processes,
    ),
  );
  /** Creations under way of teams not placed: where they went, and how many have not settled. */
  const pending = new Map();

  let written = Promise.resolve();
  /** The write that will take every change made so far, while it waits for the one under way. */
  let queued = null;
  const write = async () => {
    queued = null;
    const text = `${JSON.stringify({ processes, teams: Object.fromEntries(placed) })}\n`;
    // Written whole and renamed over the old one: a stop mid-write leaves the old placement, never half of one.
    await writeFile(`${path}.tmp`, text, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
  };
  /** Resolves once the placement as it is now is on disk, or once its write failed (said on stderr; the next team placed writes it again). */
  const save = () => {
    if (queued === null) {
      queued = written.then(write);
      written = queued.catch((error) => console.error(`${path} could not be written: ${error.message}`));
    }
    return written;
  };
  if (!existsSync(path) || placed.size < kept.length) await save();

  return {
    /** The process of a placed team, else null: none has it (the first process answers for it). */
    home: (teamId) => placed.get(teamId) ?? null,
    /**
     * Where a creation of a team not placed goes: where a creation of it under way went, else the
     * process with the fewest teams; null (the first process, unplaced) for an id that names no team
     * or past MAX_PLACED_TEAMS. Each creation given a process is settled once.
     */
    place(teamId) {
      if (!TEAM_ID.test(teamId)) return null;
      const under = pending.get(teamId);
      if (under) {
        under.creations += 1;
        return under.index;
      }
      if (placed.size + pending.size >= MAX_PLACED_TEAMS) return null;
      const counts = Array.from({ length: processes }, () => 0);
      for (const index of placed.values()) counts[index] += 1;
      for (const { index } of pending.values()) counts[index] += 1;
      const index = counts.indexOf(Math.min(...counts));
      pending.set(teamId, { index, creations: 1 });
      return index;
    },
    /**
     * A creation's outcome: `created` when the Worker answered that the team is now there, which
     * places it for good; anything else (a refusal, an answer that never came) places nothing.
     * Resolves once that is on disk.
     */
    settle(teamId, created) {
      const under = pending.get(teamId);
      if (!under) return written;
      under.creations -= 1;
      if (under.creations === 0) pending.delete(teamId);
      if (!created || placed.has(teamId)) return written;
      placed.set(teamId, under.index);
      return save();
    },
  };
}
