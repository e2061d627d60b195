import type { ApiError } from '../shared/errors/api-error';
import { errorBody } from '../shared/errors/envelope';
import { JsonBody } from '../shared/json-body';
import { corsHeaders } from './origin-guard';

/** Headers on every answer: the request id, no caching of anything that may hold a secret. */
export function baseHeaders(requestId: string, origin: string | null): Record<string, string> {
  return {
    'x-request-id': requestId,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...corsHeaders(origin),
  };
}

export function jsonResponse(body: unknown, status: number, requestId: string, origin: string | null): Response {
  const headers = baseHeaders(requestId, origin);
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  const payload = body instanceof JsonBody ? body.body : JSON.stringify(body);
  return new Response(payload, { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
}

export function errorResponse(error: ApiError, requestId: string, origin: string | null): Response {
  const response = jsonResponse(errorBody(error, requestId), error.status, requestId, origin);
  for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
  return response;
}

export function emptyResponse(status: number, requestId: string, headers: Record<string, string>): Response {
  return new Response(null, { status, headers: { ...baseHeaders(requestId, null), ...headers } });
}

/** The same answer without its body, for HEAD. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
