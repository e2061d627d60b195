import { z } from 'zod';
import { COOKIE_FORMATS, CookieRowError } from '../cookies/formats';

/** The largest cookie file an import takes: far above the 5,000 cookies a busy profile holds. */
export const COOKIE_CONTENT_MAX = 16 * 1024 * 1024;

/** `GET /api/v1/profiles/{id}/cookies`: the format, and a domain to keep only its cookies and its subdomains'. */
export const CookieExportQuery = z
  .object({
    format: z.enum(COOKIE_FORMATS).default('json'),
    domain: z.string().min(1).max(253).optional().meta({
      description: 'Only the cookies of this domain and its subdomains (`example.com` keeps `a.example.com`).',
    }),
  })
  .strict();

export const CookieExport = z
  .object({
    format: z.enum(COOKIE_FORMATS),
    count: z.int(),
    content: z.string().meta({
      description:
        "`json`: an array in the browser extensions' shape; `netscape`: cookies.txt, which has no SameSite (docs/cookies.md).",
    }),
  })
  .meta({ id: 'CookieExport' });

/** `POST /api/v1/profiles/{id}/cookies`. */
export const CookieImport = z
  .object({
    content: z.string().min(1).max(COOKIE_CONTENT_MAX),
    format: z
      .enum(['auto', ...COOKIE_FORMATS])
      .default('auto')
      .meta({ description: '`auto`: JSON when the content begins with `[` or `{`, else cookies.txt.' }),
    mode: z
      .enum(['merge', 'replace'])
      .default('merge')
      .meta({ description: '`replace` removes every cookie of the profile first.' }),
  })
  .strict()
  .meta({ id: 'CookieImport' });

export const CookieImportResult = z
  .object({
    imported: z.int(),
    replaced: z.int().meta({
      description: '`merge`: the cookies an imported one took the place of; `replace`: the cookies removed first.',
    }),
    errors: z.array(CookieRowError).meta({
      description: 'Each row not imported, `row` counting from 1: a JSON array position, a cookies.txt line.',
    }),
  })
  .meta({ id: 'CookieImportResult' });
