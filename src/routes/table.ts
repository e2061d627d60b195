import { accountRoutes } from '../../handlers/account';
import { logRoutes } from '../../handlers/logs';
import { systemRoutes } from '../../handlers/system';
import { tokenRoutes } from '../../handlers/tokens';
import type { AnyRoute } from './define';

/** Every route of LPA. A family adds its list here and nowhere else. */
export const ROUTES: readonly AnyRoute[] = [...systemRoutes, ...accountRoutes, ...tokenRoutes, ...logRoutes];
