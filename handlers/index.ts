import type { Families } from '../src/contracts';
import { auditRoutes } from './audit';
import { fileRoutes } from './files';
import { flowRoutes } from './flows';
import { flowRunRoutes } from './flow-runs';
import { globalRoutes } from './globals';
import type { Route } from './implement';
import { logRoutes } from './logs';
import { membershipRoutes } from './membership';
import { openapiRoutes } from './openapi';
import { profileAccountRoutes } from './profile-accounts';
import { profileRoutes } from './profiles';
import { runRoutes } from './runs';
import { cookieRoutes } from './cookies';
import { settingsRoutes } from './settings';
import { shareRoutes } from './shares';
import { synchronizerRoutes } from './synchronizer';
import { frontRoutes, systemRoutes } from './system';
import { teamRoutes } from './team-link';
import { tokenRoutes } from './tokens';

/**
 * Each family of src/contracts that needs a store implemented; one left out does not compile. The
 * one that needs none, `reachability`, is the front's (./system.ts `frontRoutes`).
 */
const IMPLEMENTED: { [F in keyof Omit<Families, 'reachability'>]: Route[] } = {
  system: systemRoutes,
  settings: settingsRoutes,
  membership: membershipRoutes,
  tokens: tokenRoutes,
  profiles: profileRoutes,
  profileAccounts: profileAccountRoutes,
  runs: runRoutes,
  cookies: cookieRoutes,
  logs: logRoutes,
  globals: globalRoutes,
  flows: flowRoutes,
  flowRuns: flowRunRoutes,
  shares: shareRoutes,
  files: fileRoutes,
  synchronizer: synchronizerRoutes,
  audit: auditRoutes,
  team: teamRoutes,
  openapi: openapiRoutes,
};

/** What the local store's object starts with: the watch of runs a stopped service left behind (./runs.ts). */
export { watchRuns } from './runs';

/** Every route the local store's object serves, in the order of src/contracts/index.ts. */
export const STORE_ROUTES: readonly Route[] = Object.values(IMPLEMENTED).flat();

/** Every route the local service serves: its front's (`GET /status`) and its store object's. */
export const ROUTES: readonly Route[] = [...frontRoutes, ...STORE_ROUTES];
