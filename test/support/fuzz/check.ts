import { expect } from 'vitest';
import { ERROR_CATALOG, type ErrorCode } from '../../../src/shared/errors/catalog';
import { codeEnvelope, ErrorEnvelope } from '../../../src/shared/errors/envelope';
import { routeErrorCodes } from '../../../src/openapi/errors';
import { ROUTES } from '../../../handlers';
import { createRouter } from '../../../src/pipeline/router';
import { consoleResponse } from '../../../src/pipeline/console';
import { freshIp } from '../api';
import { directFetcher } from '../direct-fetch';
import { BASE_URL } from '../constants';
import { storageFingerprint } from './fingerprint';
import type { Caller, FuzzRequest } from './requests';

/** Longest a single request may take before it counts as a hang (generous: the machine is shared). */
const HANG_MS = 15_000;

/** What a request that matches no route may answer: the guards and authentication run first. */
const UNROUTED: ErrorCode[] = [
  'route.not_found',
  'auth.token_missing',
  'auth.token_invalid',
  'auth.throttled',
  'request.host_forbidden',
  'request.origin_forbidden',
];

const router = createRouter(ROUTES);

export interface FuzzAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Sends a fuzzed request as a real client would. */
export async function send(request: FuzzRequest, tokens: Record<Caller, string | null>): Promise<FuzzAnswer> {
  const headers: Record<string, string> = { host: new URL(BASE_URL).host, ...request.headers };
  const token = tokens[request.caller];
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const answer = (async () => {
    const response = await directFetcher.fetch(`${BASE_URL}${request.target}`, {
      method: request.method,
      headers,
      body: request.body,
      // A caller with a valid token sends from the address the tests authenticate from (one the
      // throttle knows); the others from fresh ones, which share the throttle's budget for unknown addresses.
      cf: { clientIp: request.caller === 'admin' || request.caller === 'scopeless' ? '127.0.0.1' : freshIp() },
    } as RequestInit);
    return { status: response.status, headers: response.headers, text: await response.text() };
  })();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const hang = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS)),
  );
  try {
    return await Promise.race([answer, hang]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

/**
 * Sends one fuzzed request and holds the answer to the service's promises: never a 5xx; a success
 * in the route's declared shape; a failure as the envelope with a catalogued code that the route
 * documents, its status, and its request id; and a refused request leaves storage as it was.
 */
export async function checkRequest(request: FuzzRequest, tokens: Record<Caller, string | null>): Promise<void> {
  const before = await storageFingerprint();
  const answer = await send(request, tokens);
  const where = `${request.method} ${request.target.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  const { pathname } = new URL(`${BASE_URL}${request.target}`);
  const match = router.match(request.method, pathname);
  if (answer.status < 300) {
    // Besides the routes, only the web console's own files answer (src/pipeline/console.ts).
    if (!match) {
      expect(consoleResponse(request.method, pathname, 'fuzz'), where).not.toBeNull();
      return;
    }
    const route = match.route;
    expect(answer.status, where).toBe(route.status ?? 200);
    if (route.response) expect(route.response.safeParse(JSON.parse(answer.text)).success, where).toBe(true);
    return;
  }
  const envelope = ErrorEnvelope.safeParse(JSON.parse(answer.text));
  expect(envelope.success, where).toBe(true);
  const { error, request_id } = envelope.data!;
  expect(Object.keys(ERROR_CATALOG), where).toContain(error.code);
  expect(ERROR_CATALOG[error.code as ErrorCode].status, where).toBe(answer.status);
  expect(
    codeEnvelope(error.code as ErrorCode).safeParse(JSON.parse(answer.text)).error?.issues,
    `${where}: details off the code's schema`,
  ).toBeUndefined();
  expect(
    match ? routeErrorCodes(match.route) : UNROUTED,
    `${where}: a code the OpenAPI document does not list`,
  ).toContain(error.code);
  expect(answer.headers.get('x-request-id'), where).toBe(request_id);
  const after = await storageFingerprint();
  expect(after.tables, `${where}: a refused request changed storage`).toEqual(before.tables);
  const named = stringsOf(request);
  expect(
    after.files.filter((f) => !before.files.includes(f) && named.has(f)),
    `${where}: a refused request wrote a file`,
  ).toEqual([]);
}

/** Every string a request carries: its decoded path segments and query values, and its body's strings. */
function stringsOf(request: FuzzRequest): Set<string> {
  const out = new Set<string>();
  const url = new URL(`${BASE_URL}${request.target}`);
  for (const part of url.pathname.split('/')) out.add(safeDecode(part));
  for (const [name, value] of url.searchParams) out.add(name).add(value);
  const collect = (value: unknown): void => {
    if (typeof value === 'string') out.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  try {
    collect(JSON.parse(typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body)));
  } catch {
    // not JSON: it stored nothing by name
  }
  return out;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
