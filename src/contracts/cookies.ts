import { CookieExport, CookieExportQuery, CookieImport, CookieImportResult } from '../shared/schemas/cookies';
import { COOKIE_CONTENT_MAX } from '../shared/schemas/cookies';
import { IdParams } from '../shared/schemas/ids';
import { defineContract } from './define';

const COOKIES_DOC = 'docs/cookies.md';
const BROWSER_ERRORS = ['resource.not_found', 'run.browser_missing', 'cookies.browser_failed'] as const;

/**
 * A profile's cookies, out and in (docs/cookies.md): through its running browser, or a short headless
 * one on its folder. Local: a profile's browser folder is one machine's.
 */
export const cookies = {
  export: defineContract({
    method: 'GET',
    path: '/api/v1/profiles/:id/cookies',
    home: 'local',
    tag: 'Cookies',
    summary:
      "A profile's cookies as JSON or cookies.txt; they are credentials, so every read is audited (never the values)",
    description: `Works on a running profile and on a stopped one (${COOKIES_DOC}).`,
    scopes: ['profiles:read', 'secrets:read'],
    params: IdParams,
    query: CookieExportQuery,
    response: CookieExport,
    audit: 'profiles.cookies_export',
    errors: BROWSER_ERRORS,
  }),
  import: defineContract({
    method: 'POST',
    path: '/api/v1/profiles/:id/cookies',
    home: 'local',
    tag: 'Cookies',
    summary:
      'Write cookies into a profile from JSON (extension, Playwright, Puppeteer) or cookies.txt; each row whole or not at all',
    description: `Works on a running profile and on a stopped one; a stopped one takes no session cookie (${COOKIES_DOC}).`,
    scopes: ['profiles:write'],
    params: IdParams,
    body: CookieImport,
    bodyLimit: COOKIE_CONTENT_MAX + 64 * 1024,
    response: CookieImportResult,
    audit: 'profiles.cookies_import',
    errors: [...BROWSER_ERRORS, 'cookies.content_invalid'],
  }),
};
