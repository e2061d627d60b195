import { STORE_ROUTES } from '../../handlers';
import { memberRoutes } from '../../handlers/members';
import { pushRoutes } from '../../handlers/push';
import { runBundleRoutes } from '../../handlers/run-bundles';
import { runLeaseRoutes } from '../../handlers/run-leases';
import { tokenRoutes } from '../../handlers/tokens';
import type { Route } from '../../handlers/implement';

/**
 * What every team serves under `/teams/{team_id}` (docs/teams.md#routes): the routes whose data is
 * the team's (`home: 'team'`: profiles and their accounts, globals, flows, shares, the audit log, the
 * audit settings, the version), the team's tokens (for its scripts and machines), its members, and
 * the import of `lpa team push`, and the leases of its profiles' runs and their browser data.
 * The routes of one machine (log files, automation files, the synchronizer, the machine's status,
 * the account membership) are not served there: 404 `route.not_found`.
 */
export const TEAM_ROUTES: readonly Route[] = [
  ...STORE_ROUTES.filter((route) => route.home === 'team'),
  ...tokenRoutes,
  ...memberRoutes,
  ...pushRoutes,
  ...runLeaseRoutes,
  ...runBundleRoutes,
];
