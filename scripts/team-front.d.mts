/** Types of scripts/team-front.mjs for the TypeScript that imports it (its tests). */
export function openTeamFront(options: {
  port: number;
  upstreams: readonly number[];
  placement: {
    home(teamId: string): number | null;
    place(teamId: string): number | null;
    settle(teamId: string, created: boolean): unknown;
  };
  /** The run's key, which the Worker holds as TEAM_FRONT_KEY (src/shared/team-front-key.ts). */
  frontKey: string;
}): Promise<{ close(): Promise<void> }>;
