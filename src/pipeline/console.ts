import type { ConsoleAsset } from '../console/asset';
import { CONSOLE_ASSETS } from '../console/assets.generated';

/**
 * What the console's pages may do: load their own scripts, styles and images, call their own origin,
 * and nothing else — no inline script, no eval, no framing by any page (`frame-ancestors 'none'`).
 * The favicon is an empty `data:` image, so the browser asks for no file that does not exist.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const YEAR_SECONDS = 365 * 24 * 3600;

/** The headers of every console file; the API's own answers keep theirs (src/pipeline/respond.ts). */
function consoleHeaders(asset: ConsoleAsset, requestId: string): Record<string, string> {
  return {
    'content-type': asset.type,
    // A hashed name changes with its content, so it is kept for good; the page itself is asked for every time.
    'cache-control': asset.hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache',
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // Another site's page can neither embed these files (`<script src>`) nor share a window with the console.
    'cross-origin-resource-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'x-request-id': requestId,
  };
}

/**
 * The console's file at this path, for GET and HEAD, or null: `/` is the page, `/assets/…` its
 * hashed scripts and styles. Every other path stays the API's.
 */
export function consoleResponse(method: string, path: string, requestId: string): Response | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const asset = Object.hasOwn(CONSOLE_ASSETS, path) ? CONSOLE_ASSETS[path] : undefined;
  if (!asset) return null;
  return new Response(asset.body, { status: 200, headers: consoleHeaders(asset, requestId) });
}
