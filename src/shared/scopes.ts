/** The route-level scopes of the spec. An admin session satisfies every one of them. */
export const SCOPES = [
  'audit:read',
  'settings:write',
  'runtime:control',
  'secrets:read',
  'secrets:totp',
  'rpa:write',
  'profiles:read',
  'profiles:write',
] as const;

export type Scope = (typeof SCOPES)[number];
