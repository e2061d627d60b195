import { membershipRoutes } from '../../handlers/membership';
import { automationFileRoutes } from '../../handlers/automation-files';
import { automationFlowRoutes } from '../../handlers/automation-flows';
import { automationGlobalRoutes } from '../../handlers/automation-globals';
import { automationShareRoutes } from '../../handlers/automation-shares';
import { automationSynchronizerRoutes } from '../../handlers/automation-synchronizer';
import { auditRoutes } from '../../handlers/audit';
import { logRoutes } from '../../handlers/logs';
import { openapiRoutes } from '../../handlers/openapi';
import { profileAccountRoutes } from '../../handlers/profile-accounts';
import { profileRoutes } from '../../handlers/profiles';
import { systemRoutes } from '../../handlers/system';
import { tokenRoutes } from '../../handlers/tokens';
import type { AnyRoute } from './define';

/** Every route of LPA. A family adds its list here and nowhere else. */
export const ROUTES: readonly AnyRoute[] = [
  ...systemRoutes,
  ...membershipRoutes,
  ...tokenRoutes,
  ...profileRoutes,
  ...profileAccountRoutes,
  ...logRoutes,
  ...automationGlobalRoutes,
  ...automationFlowRoutes,
  ...automationShareRoutes,
  ...automationFileRoutes,
  ...automationSynchronizerRoutes,
  ...auditRoutes,
  ...openapiRoutes(() => ROUTES),
];
