/** Types of scripts/team-placement.mjs for the TypeScript that imports it (its tests). */
export const PLACEMENT_FILE: string;
export const MAX_PLACED_TEAMS: number;
export interface Placement {
  processes: number;
  teams: Record<string, number>;
}
export function readPlacement(dataRoot: string): Placement | null;
export function teamPlacement(
  dataRoot: string,
  processes: number,
): Promise<{
  home(teamId: string): number | null;
  place(teamId: string): number | null;
  settle(teamId: string, created: boolean): Promise<void>;
}>;
