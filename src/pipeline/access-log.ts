import type { LogRecord } from '../shared/logs/line';
import type { LogBuffer } from './api-log-buffer';
import type { ApiLogGate } from './api-log-gate';
import { isSecretKey, REDACTED, sanitizeText } from '../shared/logs/sanitize';
import type { FrontContext } from '../../handlers/context';
import { redactTokens, type KnownSecrets } from './redact';

/** Long enough for any real route, short enough that a junk URL cannot bloat the log. */
const MAX_PATH = 512;

/** The request's URL, or null when the runtime handed over one that does not parse (a refused Host). */
export function parsedUrl(request: Request): URL | null {
  try {
    return new URL(request.url);
  } catch {
    return null;
  }
}

/** What an unparsable request URL asked for, after its scheme and authority, as a route's path is reported (200 characters). */
export const requestTarget = (url: string) => url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/*?#]*/i, '').slice(0, 200);

/** The path as requested, without tokens and without the values of secret-looking query parameters. */
function loggedPath(url: URL | null, secrets: KnownSecrets): string {
  if (url === null) return '-';
  const query =
    url.search === ''
      ? []
      : [...url.searchParams].map(([name, value]) => `${name}=${isSecretKey(name) ? REDACTED : value}`);
  // Redacted before it is cut, so that a cut never leaves part of a secret unrecognised.
  const path = sanitizeText(
    redactTokens(query.length === 0 ? url.pathname : `${url.pathname}?${query.join('&')}`, secrets),
  );
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

/**
 * The `api` log's line for one request, made after the answer is built and handed to the isolate's
 * buffer, which writes it with others in one batch (src/pipeline/api-log-buffer.ts). The request
 * never waits for it, and a failed write only reaches the console (core status reports a log folder
 * that cannot be written), never the answer.
 */
export function logAccess(
  buffer: LogBuffer,
  gate: ApiLogGate,
  /** The request authenticated, or its address is one of the user's own clients: never dropped (src/pipeline/api-log-gate.ts). */
  trusted: boolean,
  ctx: FrontContext,
  request: Request,
  url: URL | null,
  secrets: KnownSecrets,
  response: Response,
  startedAt: number,
  now: number,
): void {
  const actor = ctx.principal?.actor;
  const record: LogRecord = {
    ts: now,
    level: response.status >= 500 ? 'error' : 'info',
    message: `${request.method} ${loggedPath(url, secrets)}`,
    fields: {
      status: response.status,
      duration_ms: now - startedAt,
      request_id: ctx.requestId,
      actor: actor?.type ?? 'anonymous',
      actor_id: actor?.id ?? null,
      ip: ctx.clientIp,
    },
  };
  for (const line of gate.admit(record, trusted, now)) buffer.add(line, ctx.waitUntil);
}
