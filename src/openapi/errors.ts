import { ERROR_CATALOG, type ErrorCode } from '../shared/errors/catalog';
import type { Contract } from '../contracts/define';

/**
 * A machine in a team sends a team route on to the team and answers these when the team does not, or
 * answers what is not the team API's JSON (docs/teams.md#offline), or refuses the machine's team
 * token (docs/teams.md#the-machines-team-token); solo, it never does, but the local
 * service's document is one for both.
 */
export function forwardingErrors(route: Contract): ErrorCode[] {
  if (route.home !== 'team') return [];
  const codes: ErrorCode[] = ['team.unreachable', 'team.bad_answer'];
  // The team checks the machine's team token for the scopes the local service checked the caller's for.
  if (route.access !== 'public' && route.scopes?.length) codes.push('team.scope_missing');
  return codes;
}

/**
 * The error codes a route can answer, derived from what its declaration makes it do; `served`: the
 * codes its service adds (the local service's by default), `never`: those the service never gives
 * although the declaration implies them.
 */
export function routeErrorCodes(
  route: Contract,
  served: readonly ErrorCode[] = forwardingErrors(route),
  never: readonly ErrorCode[] = [],
): ErrorCode[] {
  const codes = new Set<ErrorCode>(['request.host_forbidden', 'request.origin_forbidden', 'internal']);
  if (route.access !== 'public') {
    for (const code of ['auth.token_missing', 'auth.token_invalid', 'auth.throttled'] as const) codes.add(code);
  }
  if (route.access === 'admin') codes.add('auth.admin_required');
  if (route.access !== 'public' && route.access !== 'admin' && route.scopes?.length) codes.add('auth.scope_missing');
  // Every route validates its query (a route without one refuses any parameter).
  codes.add('request.invalid');
  if (route.body) {
    for (const code of [
      'request.malformed_json',
      'request.unsupported_media_type',
      'request.too_large',
      'request.body_timeout',
    ] as const)
      codes.add(code);
  }
  for (const code of served) codes.add(code);
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes].filter((code) => !never.includes(code));
}

/** Codes grouped by HTTP status, as OpenAPI responses are keyed. */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code].status;
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return new Map([...groups].sort(([a], [b]) => a - b));
}
