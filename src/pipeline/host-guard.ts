import { ApiError } from '../shared/errors/api-error';

/**
 * Only the configured host names (locally: the loopback names with the served port): a DNS-rebinding
 * page reaches us with its own host name in Host, and is refused here before anything else runs.
 */
export function assertAllowedHost(request: Request, allowed: ReadonlySet<string>): void {
  const host = (request.headers.get('host') ?? '').toLowerCase();
  if (!allowed.has(host)) throw new ApiError('request.host_forbidden', { host: host.slice(0, 255) });
}
