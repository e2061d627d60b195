import { z } from 'zod';

/**
 * A profile's proxy (docs/proxies.md): the upstream every request of its browser goes through. The
 * profile record shows it without its password (storage/profiles/schema.ts); the host is handed it
 * with the password opened, only at a start or a check (src/host/node/browsers/profile-proxy.ts).
 */
export const ProxyType = z.enum(['http', 'https', 'socks4', 'socks5']);
export type ProxyType = z.output<typeof ProxyType>;

/** A label of a host name: at most 63 characters, a hyphen never first or last. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** A host name or an IPv4 address, or an IPv6 address in brackets: what goes between `@` and `:port` in a URL. */
export const ProxyHost = z
  .string()
  .min(1)
  .max(253)
  // Each dot between two labels, and one at the end allowed. The dot may not be optional inside a
  // repeated group: that let a label split anywhere, and 40 letters and a `!` took the Durable
  // Object's thread for hours (a fuzz run found it).
  .regex(new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$|^\\[[0-9A-Fa-f:.]+\\]$`), {
    message: 'a host name, an IPv4 address, or an IPv6 address in brackets',
  });

/** The proxy as the host uses it: its password in plaintext (never stored so, never logged). */
export const ProxyUpstream = z.object({
  type: ProxyType,
  host: ProxyHost,
  port: z.int().min(1).max(65_535),
  username: z.string().nullable(),
  password: z.string().nullable(),
});
export type ProxyUpstream = z.output<typeof ProxyUpstream>;

/** How a proxy is named in an audit entry or an error: `type://host:port`, never its credentials. */
export const proxyName = (proxy: Pick<ProxyUpstream, 'type' | 'host' | 'port'>) =>
  `${proxy.type}://${proxy.host}:${proxy.port}`;

/** Why a proxy failed: it refused the credentials, could not be reached, or reached but the site did not answer through it. */
export const ProxyErrorCode = z.enum(['proxy.auth_failed', 'proxy.unreachable', 'proxy.check_failed']);
export type ProxyErrorCode = z.output<typeof ProxyErrorCode>;

/** `POST /api/v1/profiles/{id}/proxy/check`: the page to fetch through the profile's proxy. */
export const ProxyCheckRequest = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .meta({ description: 'An http or https URL, fetched through the proxy as the browser would.' }),
  })
  .strict()
  .meta({ id: 'ProxyCheckRequest' });
export type ProxyCheckRequest = z.output<typeof ProxyCheckRequest>;

export const ProxyCheck = z
  .object({
    ok: z.boolean().meta({ description: 'The site answered through the proxy (any HTTP status of its own).' }),
    status: z.int().nullable().meta({ description: "The site's HTTP status; null when it did not answer." }),
    latency_ms: z
      .int()
      .min(0)
      .meta({ description: 'From the first byte sent to the proxy to the head of the answer.' }),
    error_code: ProxyErrorCode.nullable(),
  })
  .meta({ id: 'ProxyCheck' });
export type ProxyCheck = z.output<typeof ProxyCheck>;
