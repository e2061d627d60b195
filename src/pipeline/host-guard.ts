import { ApiError } from '../shared/errors/api-error';

/**
 * Only the loopback names with the served port: a DNS-rebinding page reaches us with its own host
 * name in Host, and is refused here before anything else runs.
 */
export function assertAllowedHost(request: Request, port: number): void {
  const host = (request.headers.get('host') ?? '').toLowerCase();
  const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!allowed.includes(host)) throw new ApiError('request.host_forbidden', { host: host.slice(0, 255) });
}
