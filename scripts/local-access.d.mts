/** Types of scripts/local-access.mjs for the TypeScript that imports it (the team service's tests and bench). */
export const LOCAL_ACCESS_ISSUER: string;
export const LOCAL_ACCESS_AUDIENCE: string;
export function newAccessKey(kid: string): Promise<import('jose').JWK>;
export function serveJwks(privateJwks: readonly import('jose').JWK[]): Promise<string>;
export function localAssertion(dataRoot: string, email: string, seconds?: number): Promise<string>;
export function serveLocalAccess(
  dataRoot: string,
): Promise<{ LPA_ACCESS_JWKS_URL: string; LPA_ACCESS_AUD: string; LPA_ACCESS_ISSUER: string }>;
