import { audit } from './audit';
import type { Contract } from './define';
import { files } from './files';
import { flows } from './flows';
import { flowRuns } from './flow-runs';
import { globals } from './globals';
import { logs } from './logs';
import { members } from './members';
import { membership } from './membership';
import { openapi, teamOpenapi } from './openapi';
import { profileAccounts } from './profile-accounts';
import { profiles } from './profiles';
import { push } from './push';
import { runBundles } from './run-bundles';
import { runLeases } from './run-leases';
import { runs } from './runs';
import { cookies } from './cookies';
import { settings } from './settings';
import { shares } from './shares';
import { synchronizer } from './synchronizer';
import { reachability, system } from './system';
import { team } from './team-link';
import { teams } from './teams';
import { tokens } from './tokens';

/**
 * Every family of routes, in the order the OpenAPI document lists them. A new family is added here;
 * the server then refuses to build until handlers/index.ts implements it.
 */
export const FAMILIES = {
  reachability,
  system,
  settings,
  membership,
  tokens,
  profiles,
  profileAccounts,
  runs,
  cookies,
  logs,
  globals,
  flows,
  flowRuns,
  shares,
  files,
  synchronizer,
  audit,
  team,
  openapi,
};

export type Families = typeof FAMILIES;

/** Every route's contract: what the OpenAPI document, the MCP tools and the docs are derived from. */
export const CONTRACTS: readonly Contract[] = Object.values(FAMILIES).flatMap((family): Contract[] =>
  Object.values(family),
);

/**
 * The routes the team service's front answers itself (src/teams/team-front.ts), beside those every
 * team serves under `/teams/{team_id}` (src/teams/routes.ts): its status, the operator's creation of a
 * team, and its own OpenAPI document (src/teams/openapi.ts). The local service serves only the first.
 */
export const teamFrontRoutes = { ...reachability, ...teams, ...teamOpenapi };

export const TEAM_FRONT_CONTRACTS: readonly Contract[] = Object.values(teamFrontRoutes);

export {
  audit,
  cookies,
  files,
  flows,
  globals,
  logs,
  members,
  membership,
  openapi,
  profileAccounts,
  profiles,
  push,
  reachability,
  runBundles,
  runLeases,
  runs,
  settings,
  shares,
  synchronizer,
  system,
  team,
  teamOpenapi,
  teams,
  tokens,
};
