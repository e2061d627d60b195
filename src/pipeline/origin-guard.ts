import { ApiError } from '../shared/errors/api-error';
import { TEAM_HEAD_HEADER } from '../shared/schemas/team';

const ALLOWED_HEADERS = 'authorization, content-type';
/** What a page may read of an answer; the team head is on the answers a team gave (docs/teams.md#both-chains). */
const EXPOSED_HEADERS = `x-request-id, retry-after, ${TEAM_HEAD_HEADER}`;

/** What a browser sends as `Sec-Fetch-Site` for a request that another site's page started. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/**
 * A page's Origin must be listed exactly in the allowed set (LPA_ALLOWED_ORIGINS and the console's own
 * origins, src/shared/config.ts); everything else, `null` included, is refused. A request without Origin comes from a script or tool and passes, unless the browser
 * marks it as started by another site (`Sec-Fetch-Site`): an `<img>` or a navigation sends no
 * Origin. Both are refused before authentication, so a page can never spend the throttle's budget.
 * Returns the allowed origin, for the CORS headers of the answer.
 */
export function checkOrigin(request: Request, allowed: ReadonlySet<string>): string | null {
  const origin = request.headers.get('origin');
  if (origin === null) {
    const site = (request.headers.get('sec-fetch-site') ?? '').toLowerCase();
    if (FOREIGN_SITES.has(site)) throw new ApiError('request.origin_forbidden', { origin: null, sec_fetch_site: site });
    return null;
  }
  if (!allowed.has(origin)) throw new ApiError('request.origin_forbidden', { origin: origin.slice(0, 255) });
  return origin;
}

export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
}

/** The answer to a CORS preflight from an allowed origin. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}

export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}
