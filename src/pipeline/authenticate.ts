import type { Store } from '../../storage/client';
import type { Config } from '../shared/config';
import { ApiError } from '../shared/errors/api-error';
import { MAX_TOKEN_LENGTH } from '../shared/admin-token';
import { sha256Hex, timingSafeEqual } from '../shared/crypto';
import type { Principal } from '../../handlers/context';

const ADMIN: Principal = { actor: { type: 'admin', id: null, label: 'admin' }, scopes: [], admin: true };

/** The bearer token of the Authorization header; a token anywhere else (the query string) is not one. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

/**
 * Who sent a request, or an ApiError (`auth.token_missing`, `auth.token_invalid`: the latter counts
 * as a guess for the throttle). The local store knows its admin token and its tokens
 * (`localAuthenticator`); a team's store also knows its members (src/teams/identity.ts); the team
 * service's front knows the operator (src/teams/operator.ts).
 */
export type Authenticator = (request: Request) => Promise<Principal>;

/** The local store's: the bootstrap admin token (by its hash), or a token of the store. */
export function localAuthenticator(config: Config, store: Store): Authenticator {
  return async (request) => {
    const token = bearerToken(request);
    if (token === null) throw new ApiError('auth.token_missing');
    if (token.length > MAX_TOKEN_LENGTH) throw new ApiError('auth.token_invalid');
    const hash = sha256Hex(token);
    if (timingSafeEqual(hash, config.adminTokenSha256)) return ADMIN;
    return storeTokenPrincipal(hash, store);
  };
}

/** The principal of a store token, by the token's SHA-256; `auth.token_invalid` when no live token has it. */
export function storeTokenPrincipal(hash: string, store: Store): Principal {
  // From the store's live tokens in memory (storage/tokens/tokens.ts): no SQL.
  const record = store.tokens.check(hash, Date.now());
  if (!record) throw new ApiError('auth.token_invalid');
  return {
    actor: { type: record.admin ? 'admin' : 'token', id: record.id, label: record.name },
    scopes: record.scopes,
    admin: record.admin,
  };
}
