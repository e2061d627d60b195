import { ApiError } from '../shared/errors/api-error';

/** The refusal of a host this service does not answer for. */
export const hostForbidden = (host: string) => new ApiError('request.host_forbidden', { host: host.slice(0, 255) });

/**
 * Whether a URL's authority is one of `allowed`: as the URL writes it, or with the scheme's default
 * port that a URL leaves out (a service on port 80 is allowed as `127.0.0.1:80`).
 */
export function allowedAuthority(url: URL, allowed: ReadonlySet<string>): boolean {
  return (
    allowed.has(url.host) || (url.port === '' && allowed.has(`${url.host}:${url.protocol === 'https:' ? 443 : 80}`))
  );
}

/**
 * Only the configured host names (locally: the loopback names with the served port): a DNS-rebinding
 * page reaches us with its own host name in Host, and is refused here before anything else runs. An
 * absolute-form target (`GET http://evil.example/… HTTP/1.1`) names its own authority, which wins
 * over Host (RFC 9112 §3.2.2): where the runtime makes it the request's URL (Deno) it is held to the
 * same names here; workerd and Bun drop it for Host's, and under workerd the front door judges it
 * (src/runtimes/front/request-heads.ts).
 */
export function assertAllowedHost(request: Request, url: URL | null, allowed: ReadonlySet<string>): void {
  const host = (request.headers.get('host') ?? '').toLowerCase();
  if (!allowed.has(host)) throw hostForbidden(host);
  if (url !== null && !allowedAuthority(url, allowed)) throw hostForbidden(url.host);
}
