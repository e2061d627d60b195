import type { StoreClient } from '../../storage/client';
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

export async function authenticate(request: Request, config: Config, store: StoreClient): Promise<Principal> {
  const token = bearerToken(request);
  if (token === null) throw new ApiError('auth.token_missing');
  if (token.length > MAX_TOKEN_LENGTH) throw new ApiError('auth.token_invalid');
  const hash = sha256Hex(token);
  if (timingSafeEqual(hash, config.adminTokenSha256)) return ADMIN;
  // No store call where the store shares this isolate's token cache (storage/client.ts).
  const { token: record } = await store.tokens.check(hash);
  if (!record) throw new ApiError('auth.token_invalid');
  return {
    actor: { type: record.admin ? 'admin' : 'token', id: record.id, label: record.name },
    scopes: record.scopes,
    admin: record.admin,
  };
}
