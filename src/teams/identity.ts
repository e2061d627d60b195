import type { Store } from '../../storage/client';
import { bearerToken, storeTokenPrincipal, type Authenticator } from '../pipeline/authenticate';
import { MAX_TOKEN_LENGTH } from '../shared/admin-token';
import { sha256Hex } from '../shared/crypto';
import { ApiError } from '../shared/errors/api-error';
import type { AccessVerifier } from './access-jwt';
import { memberPrincipal } from './roles';

/** The header Cloudflare Access adds to every request it lets through: a JWT it signed (read without regard to case). */
export const ACCESS_ASSERTION_HEADER = 'Cf-Access-Jwt-Assertion';

/**
 * Who sent a request to a team (docs/teams.md#people-and-machines): a team token in the
 * Authorization header (scripts and machines; it alone authenticates, as locally), or else the
 * person or service token Cloudflare Access vouches for, who must be a member of this team. There
 * is no bootstrap admin token: the operator token opens no team. `store` is null for a team no
 * operator created, which knows no token and no member: each credential is checked as far as a
 * team's would be, and refused as a team refuses a stranger's.
 */
export function teamAuthenticator(verifyAccess: AccessVerifier | null, store: Store | null): Authenticator {
  return async (request: Request) => {
    const token = bearerToken(request);
    if (token !== null) {
      if (token.length > MAX_TOKEN_LENGTH || store === null) throw new ApiError('auth.token_invalid');
      return storeTokenPrincipal(sha256Hex(token), store);
    }
    const assertion = request.headers.get(ACCESS_ASSERTION_HEADER);
    if (assertion === null || verifyAccess === null) throw new ApiError('auth.token_missing');
    const { member } = await verifyAccess(assertion);
    const role = store?.members.role(member) ?? null;
    if (role === null) throw new ApiError('auth.not_member', { member: member.slice(0, 254) });
    return memberPrincipal(member, role);
  };
}
