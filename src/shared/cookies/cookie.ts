import { z } from 'zod';

/**
 * A cookie as LPA carries it between the formats and the browser (docs/cookies.md): what every
 * format maps to and from. `domain` is without a leading dot; `host_only` says whether it is sent to
 * that host alone (a cookie set without a Domain attribute) or to its subdomains too. `expires` is in
 * seconds since the epoch, null for a session cookie. `same_site` null is "unspecified" (the browser's
 * default, Lax-by-default in Chromium).
 */
export const Cookie = z
  .object({
    name: z.string().max(4096),
    value: z.string().max(4096),
    domain: z.string().min(1).max(253),
    host_only: z.boolean(),
    path: z.string().min(1).max(1024),
    secure: z.boolean(),
    http_only: z.boolean(),
    same_site: z.enum(['strict', 'lax', 'none']).nullable(),
    expires: z.number().nullable(),
  })
  .strict();
export type Cookie = z.output<typeof Cookie>;

// Characters a cookie's name or value may not hold: what would end it in a Cookie header, and controls.
const CONTROL = /[\x00-\x1f\x7f]/;
const HOST = /^([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * Why the browser would not take `cookie`, or null when it would, as of `now` (seconds): checked before
 * anything is written so that each row's fault is named, and a row is imported whole or not at all.
 */
export function cookieProblem(cookie: Cookie, now: number): string | null {
  if (cookie.name === '' && cookie.value === '') return 'a cookie needs a name or a value';
  if (CONTROL.test(cookie.name) || /[;=]/.test(cookie.name)) return 'the name holds a control character, ";" or "="';
  if (CONTROL.test(cookie.value) || cookie.value.includes(';')) return 'the value holds a control character or ";"';
  if (!HOST.test(cookie.domain) && !IPV6.test(cookie.domain)) return `"${cookie.domain.slice(0, 80)}" is no host name`;
  // The browser's own check of public suffixes is not reached through DevTools; a top-level domain is the plain case.
  if (!cookie.host_only && !cookie.domain.includes('.'))
    return `a cookie for every host under "${cookie.domain}" is refused`;
  if (!cookie.path.startsWith('/')) return 'the path must begin with "/"';
  if (CONTROL.test(cookie.path) || cookie.path.includes(';')) return 'the path holds a control character or ";"';
  if (cookie.same_site === 'none' && !cookie.secure)
    return 'SameSite=None needs Secure: the browser refuses it otherwise';
  if (cookie.name.startsWith('__Secure-') && !cookie.secure) return 'a __Secure- cookie must be Secure';
  if (cookie.name.startsWith('__Host-') && !(cookie.secure && cookie.host_only && cookie.path === '/'))
    return 'a __Host- cookie must be Secure, host-only and on the path "/"';
  if (cookie.expires !== null) {
    if (!Number.isFinite(cookie.expires)) return 'the expiry is not a number';
    if (cookie.expires <= now) return `it expired at ${new Date(cookie.expires * 1000).toISOString()}`;
  }
  return null;
}

/** Whether `cookie` is sent to `domain` or one of its subdomains: what `?domain=` of an export keeps. */
export function cookieUnder(cookie: Cookie, domain: string): boolean {
  const wanted = domain.toLowerCase().replace(/^\./, '');
  return cookie.domain === wanted || cookie.domain.endsWith(`.${wanted}`);
}

/** What makes two cookies the same one in a browser's jar: a newer one with this key replaces the older. */
export const cookieKey = (cookie: Cookie) =>
  JSON.stringify([cookie.name, cookie.domain, cookie.host_only, cookie.path]);
