import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Answer, PathOf } from './api';
import type { Method } from '../contracts/define';
import { ROUTE_ACCESS } from './route-access.generated';

/** The signed-in token as `GET /api/v1/tokens/self` answers it. */
export type TokenSelf = Answer<'GET', '/api/v1/tokens/self'>;

/**
 * Whether the token may call a route, by what the route's contract asks (route-access.generated.ts):
 * an admin session may call every route; another token, a route that is not admin-only and whose
 * every scope it holds. The console shows an action only when this says yes.
 */
export function mayCall<M extends Method>(self: TokenSelf, method: M, path: PathOf<M>): boolean {
  const needs = ROUTE_ACCESS[`${method} ${path}`];
  if (self.admin) return true;
  return needs !== undefined && needs !== 'admin' && needs.every((scope) => self.scopes.includes(scope));
}

export const SelfContext = createContext<TokenSelf | null>(null);

/** `may('POST', '/api/v1/profiles')`: whether the signed-in token may call that route. */
export function useMay(): <M extends Method>(method: M, path: PathOf<M>) => boolean {
  const self = useContext(SelfContext);
  return (method, path) => self !== null && mayCall(self, method, path);
}
