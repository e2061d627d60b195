import { ApiError } from '../shared/errors/api-error';
import type { Principal } from '../../handlers/context';
import type { Contract } from '../contracts/define';

/** All of a route's scopes are required; an admin session satisfies every scope check. */
export function authorize(route: Contract, principal: Principal | null): void {
  if (route.access === 'public' || principal?.admin) return;
  if (route.access === 'admin') throw new ApiError('auth.admin_required');
  const missing = (route.scopes ?? []).filter((scope) => !principal?.scopes.includes(scope));
  if (missing.length > 0) throw new ApiError('auth.scope_missing', { missing });
}
