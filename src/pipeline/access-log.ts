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
 * Who a request was, as its `api` line names it: the actor, and whether its line is always kept
 * (it authenticated, or its address is one of the user's own clients: ./api-log-gate.ts).
 */
export interface Caller {
  actor: string;
  actor_id: string | null;
  trusted: boolean;
}

/**
 * How a store's object tells the entry's front who a request was, so that the front writes every
 * line of the `api` log, its own routes' and the object's, in one buffer in the order they were
 * answered. Only the object sets it; the front takes it off before the answer leaves.
 */
const CALLER_HEADER = 'x-lpa-caller';

/** In the object: the answer, telling the front who asked. */
export function tellCaller(response: Response, caller: Caller): void {
  response.headers.set(CALLER_HEADER, JSON.stringify(caller));
}

/**
 * At the front: who asked, taken off the object's answer (a copy: an answer from a Durable Object
 * cannot change its headers); null when the object wrote its line itself (a team's).
 */
export function takeCaller(response: Response): { caller: Caller | null; response: Response } {
  const told = response.headers.get(CALLER_HEADER);
  if (told === null) return { caller: null, response };
  const answer = new Response(response.body, response);
  answer.headers.delete(CALLER_HEADER);
  return { caller: JSON.parse(told) as Caller, response: answer };
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
  caller: Caller,
  ctx: FrontContext,
  request: Request,
  url: URL | null,
  secrets: KnownSecrets,
  status: number,
  startedAt: number,
  now: number,
): void {
  const record: LogRecord = {
    ts: now,
    level: status >= 500 ? 'error' : 'info',
    message: `${request.method} ${loggedPath(url, secrets)}`,
    fields: {
      status,
      duration_ms: now - startedAt,
      request_id: ctx.requestId,
      actor: caller.actor,
      actor_id: caller.actor_id,
      ip: ctx.clientIp,
    },
  };
  for (const line of gate.admit(record, caller.trusted, now)) buffer.add(line, ctx.waitUntil);
}
