import { z } from 'zod';
import { Cookie } from '../shared/cookies/cookie';
import { ProxyUpstream } from '../shared/schemas/proxy';

/**
 * What the host port says of a profile's cookies (docs/cookies.md): read and written through the
 * DevTools session of its running browser, or of a short headless browser the host starts on its
 * folder when it is not running. `running` says which it was.
 */

/**
 * How a short browser on a stopped profile's folder starts: with the profile's own switches (a
 * `--password-store`, say, decides how the cookies are sealed) and through its proxy, its password
 * opened for this session only, so that even Chromium's own background requests leave as a run's do.
 */
export const ShortLaunch = z.object({ args: z.array(z.string()), proxy: ProxyUpstream.nullable() });
export type ShortLaunch = z.output<typeof ShortLaunch>;

/**
 * Why the host could not reach the profile's cookies: no browser to start, the browser failed or went
 * away, or (asked without a `ShortLaunch`) the profile has no running browser.
 */
const CookiesFailed = z.object({
  ok: z.literal(false),
  reason: z.enum(['browser_missing', 'failed', 'not_running']),
  error: z.string(),
});

export const CookiesRead = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), running: z.boolean(), cookies: z.array(Cookie) }),
  CookiesFailed,
]);
export type CookiesRead = z.output<typeof CookiesRead>;

export const CookieImportMode = z.enum(['merge', 'replace']);
export type CookieImportMode = z.output<typeof CookieImportMode>;

/** A write: how many cookies it replaced, and those the browser refused (by their index in what was asked). */
export const CookiesWritten = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    running: z.boolean(),
    replaced: z.int(),
    refused: z.array(z.object({ index: z.int(), message: z.string() })),
  }),
  CookiesFailed,
]);
export type CookiesWritten = z.output<typeof CookiesWritten>;
