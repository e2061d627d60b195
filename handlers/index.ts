import type { Families } from '../src/contracts';
import { auditRoutes } from './audit';
import { fileRoutes } from './files';
import { flowRoutes } from './flows';
import { globalRoutes } from './globals';
import type { Route } from './implement';
import { logRoutes } from './logs';
import { membershipRoutes } from './membership';
import { openapiRoutes } from './openapi';
import { profileAccountRoutes } from './profile-accounts';
import { profileRoutes } from './profiles';
import { settingsRoutes } from './settings';
import { shareRoutes } from './shares';
import { synchronizerRoutes } from './synchronizer';
import { systemRoutes } from './system';
import { teamRoutes } from './team-link';
import { tokenRoutes } from './tokens';

/** Each family of src/contracts implemented; one left out does not compile. */
const IMPLEMENTED: { [F in keyof Families]: Route[] } = {
  system: systemRoutes,
  settings: settingsRoutes,
  membership: membershipRoutes,
  tokens: tokenRoutes,
  profiles: profileRoutes,
  profileAccounts: profileAccountRoutes,
  logs: logRoutes,
  globals: globalRoutes,
  flows: flowRoutes,
  shares: shareRoutes,
  files: fileRoutes,
  synchronizer: synchronizerRoutes,
  audit: auditRoutes,
  team: teamRoutes,
  openapi: openapiRoutes,
};

/** Every route the local service serves, in the order of src/contracts/index.ts: its store's object serves them all. */
export const ROUTES: readonly Route[] = Object.values(IMPLEMENTED).flat();
