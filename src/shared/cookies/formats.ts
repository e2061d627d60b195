import { z } from 'zod';
import { type Cookie, cookieProblem } from './cookie';

/**
 * The cookie files people have (docs/cookies.md), each shape one zod schema, read into LPA's Cookie
 * and written from it: the browser extensions' JSON export (EditThisCookie, Cookie-Editor, the
 * `chrome.cookies` shape), Playwright's cookies (a `storageState` or its `cookies` array), Puppeteer's
 * `page.cookies()`, and Netscape's cookies.txt. Pure: no browser, no clock but the one given.
 */

export const COOKIE_FORMATS = ['json', 'netscape'] as const;
export type CookieFormat = (typeof COOKIE_FORMATS)[number];

/** A row that could not be read, or that the browser would refuse: `row` counts from 1 (a JSON array's position, a cookies.txt line). */
export const CookieRowError = z.object({ row: z.int(), message: z.string() });
export type CookieRowError = z.output<typeof CookieRowError>;

/** The whole content could not be read: no row of it is imported. */
export class CookieContentError extends Error {}

const Name = z.string();
const Domain = z.string().min(1);

/** The browser extensions' export, as `chrome.cookies.getAll` answers it. */
export const ExtensionCookie = z.object({
  name: Name,
  value: z.string(),
  domain: Domain,
  hostOnly: z.boolean().optional(),
  path: z.string().default('/'),
  secure: z.boolean().default(false),
  httpOnly: z.boolean().default(false),
  sameSite: z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(['no_restriction', 'none', 'lax', 'strict', 'unspecified']))
    .nullable()
    .default('unspecified'),
  session: z.boolean().optional(),
  expirationDate: z.number().optional(),
  storeId: z.string().nullable().optional(),
});

const CapitalSameSite = z.enum(['Strict', 'Lax', 'None']);

/** Playwright's cookie (`context.cookies()`, a `storageState`'s `cookies`, `addCookies`): `expires` -1 for a session cookie. */
export const PlaywrightCookie = z.object({
  name: Name,
  value: z.string(),
  domain: Domain,
  path: z.string().default('/'),
  expires: z.number().default(-1),
  httpOnly: z.boolean().default(false),
  secure: z.boolean().default(false),
  sameSite: CapitalSameSite.optional(),
});

/** Puppeteer's `page.cookies()` (DevTools' Network.Cookie): besides Playwright's fields, `size` and `session`. */
export const PuppeteerCookie = PlaywrightCookie.extend({
  size: z.number().optional(),
  session: z.boolean(),
  priority: z.string().optional(),
});

/** A Playwright `storageState`: its cookies (its origins' local storage is no cookie and is not read). */
export const StorageState = z.object({ cookies: z.array(z.unknown()) });

/** A domain as the shapes write it: a leading dot for a domain cookie. */
const fromDotted = (domain: string, hostOnly: boolean | undefined) => ({
  domain: domain.replace(/^\./, '').toLowerCase(),
  host_only: hostOnly ?? !domain.startsWith('.'),
});

const SAME_SITE_IN = { no_restriction: 'none', none: 'none', lax: 'lax', strict: 'strict', unspecified: null } as const;

function fromExtension(row: z.output<typeof ExtensionCookie>): Cookie {
  const session = row.session ?? row.expirationDate === undefined;
  return {
    name: row.name,
    value: row.value,
    ...fromDotted(row.domain, row.hostOnly),
    path: row.path,
    secure: row.secure,
    http_only: row.httpOnly,
    same_site: row.sameSite === null ? null : SAME_SITE_IN[row.sameSite],
    expires: session ? null : (row.expirationDate ?? null),
  };
}

function fromPlaywright(row: z.output<typeof PlaywrightCookie> & { session?: boolean }): Cookie {
  return {
    name: row.name,
    value: row.value,
    ...fromDotted(row.domain, undefined),
    path: row.path,
    secure: row.secure,
    http_only: row.httpOnly,
    same_site: row.sameSite ? (row.sameSite.toLowerCase() as Cookie['same_site']) : null,
    expires: row.session || row.expires < 0 ? null : row.expires,
  };
}

/** The first fault zod found, as one line. */
const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
};

/** Which shape a JSON row is: the extensions' fields, Puppeteer's, else Playwright's (whose fields are the fewest). */
function readJsonRow(row: unknown): Cookie | string {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'a cookie is a JSON object';
  const shaped =
    'expirationDate' in row || 'hostOnly' in row || 'storeId' in row
      ? ExtensionCookie.transform(fromExtension)
      : 'size' in row || 'session' in row
        ? PuppeteerCookie.transform(fromPlaywright)
        : PlaywrightCookie.transform(fromPlaywright);
  const parsed = shaped.safeParse(row);
  return parsed.success ? parsed.data : firstIssue(parsed.error);
}

function jsonRows(content: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw new CookieContentError(`not JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(parsed)) return parsed;
  const state = StorageState.safeParse(parsed);
  if (state.success) return state.data.cookies;
  throw new CookieContentError(
    'JSON cookies are an array, or an object with a "cookies" array (a Playwright storageState)',
  );
}

const BOOLEAN = { TRUE: true, FALSE: false } as const;
const HTTP_ONLY_PREFIX = '#HttpOnly_';

/** One line of cookies.txt: domain, include-subdomains, path, secure, expiry (0: session), name, value. */
function readNetscapeLine(line: string): Cookie | string {
  const httpOnly = line.startsWith(HTTP_ONLY_PREFIX);
  const fields = (httpOnly ? line.slice(HTTP_ONLY_PREFIX.length) : line).split('\t');
  // Some writers leave the tab of an empty value out.
  if (fields.length === 6) fields.push('');
  if (fields.length !== 7) return `a cookies.txt line has 7 fields separated by tabs, this one ${fields.length}`;
  const [domain, subdomains, path, secure, expiry, name, value] = fields as [string, ...string[]];
  const flag = (field: string, what: string) => {
    const known = BOOLEAN[field.toUpperCase() as keyof typeof BOOLEAN];
    if (known === undefined) throw new Error(`${what} is TRUE or FALSE, not "${field.slice(0, 20)}"`);
    return known;
  };
  try {
    const expires = Number(expiry);
    if (!/^\d+$/.test(expiry!.trim()) || !Number.isSafeInteger(expires))
      return `the expiry is seconds since 1970, not "${expiry!.slice(0, 20)}"`;
    if (domain === '') return 'the domain is empty';
    return {
      name: name!,
      value: value!,
      ...fromDotted(domain, !flag(subdomains!, 'include-subdomains')),
      path: path!,
      secure: flag(secure!, 'secure'),
      http_only: httpOnly,
      same_site: null,
      expires: expires === 0 ? null : expires,
    };
  } catch (error) {
    return (error as Error).message;
  }
}

/** A content's format when it was not said: JSON begins with `[` or `{`, anything else is cookies.txt. */
export const detectFormat = (content: string): CookieFormat => (/^\s*[[{]/.test(content) ? 'json' : 'netscape');

/** The rows of `content` read into cookies the browser would take (as of `now`, in seconds), and each row that is not. */
export function readCookies(
  content: string,
  format: CookieFormat | 'auto',
  now: number,
): { cookies: { row: number; cookie: Cookie }[]; errors: CookieRowError[] } {
  const chosen = format === 'auto' ? detectFormat(content) : format;
  const read: { row: number; read: Cookie | string }[] =
    chosen === 'json'
      ? jsonRows(content).map((row, at) => ({ row: at + 1, read: readJsonRow(row) }))
      : content.split(/\r?\n/).flatMap((line, at) => {
          const trimmed = line.trim();
          if (trimmed === '' || (trimmed.startsWith('#') && !trimmed.startsWith(HTTP_ONLY_PREFIX))) return [];
          return [{ row: at + 1, read: readNetscapeLine(line.replace(/^\s+/, '')) }];
        });
  const cookies: { row: number; cookie: Cookie }[] = [];
  const errors: CookieRowError[] = [];
  for (const { row, read: cookie } of read) {
    const problem = typeof cookie === 'string' ? cookie : cookieProblem(cookie, now);
    if (problem === null) cookies.push({ row, cookie: cookie as Cookie });
    else errors.push({ row, message: problem });
  }
  return { cookies, errors };
}

const SAME_SITE_OUT = { none: 'no_restriction', lax: 'lax', strict: 'strict' } as const;
const dotted = (cookie: Cookie) => (cookie.host_only ? cookie.domain : `.${cookie.domain}`);

/** The cookies in the extensions' JSON shape: it carries every field LPA keeps. */
function writeJson(cookies: readonly Cookie[]): string {
  const rows: z.input<typeof ExtensionCookie>[] = cookies.map((cookie) => ({
    domain: dotted(cookie),
    ...(cookie.expires === null ? {} : { expirationDate: cookie.expires }),
    hostOnly: cookie.host_only,
    httpOnly: cookie.http_only,
    name: cookie.name,
    path: cookie.path,
    sameSite: cookie.same_site === null ? 'unspecified' : SAME_SITE_OUT[cookie.same_site],
    secure: cookie.secure,
    session: cookie.expires === null,
    value: cookie.value,
  }));
  return JSON.stringify(rows, null, 2);
}

/** cookies.txt as curl and wget read it; HttpOnly as the `#HttpOnly_` prefix. It has no place for SameSite. */
function writeNetscape(cookies: readonly Cookie[]): string {
  const lines = cookies.map((cookie) =>
    [
      `${cookie.http_only ? HTTP_ONLY_PREFIX : ''}${dotted(cookie)}`,
      cookie.host_only ? 'FALSE' : 'TRUE',
      cookie.path,
      cookie.secure ? 'TRUE' : 'FALSE',
      // Whole seconds: the format has no fraction; 0 is a session cookie.
      cookie.expires === null ? '0' : String(Math.max(1, Math.floor(cookie.expires))),
      cookie.name,
      cookie.value,
    ].join('\t'),
  );
  return ['# Netscape HTTP Cookie File', '# Written by LPA. This format has no SameSite.', '', ...lines, ''].join('\n');
}

export function writeCookies(cookies: readonly Cookie[], format: CookieFormat): string {
  return format === 'json' ? writeJson(cookies) : writeNetscape(cookies);
}
