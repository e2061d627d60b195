/**
 * The LPA client: openapi-fetch over the types openapi-typescript generates from the service's
 * OpenAPI document (./schema.d.ts, written by `npm run docs` at the repository's root). Nothing
 * here knows a route: paths, parameters, bodies, answers and each route's error envelopes all come
 * from the document.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };

/** Every error envelope the document declares (one per code in the error catalogue). */
type Envelope = { error: { code: string; message: string; details: unknown }; request_id: string };

/** An answer that is not LPA's envelope (a proxy's page, a body cut short): said under this code. */
export const UNEXPECTED_ANSWER = 'sdk.unexpected_answer';

/**
 * A refusal of the service, carrying its envelope. `body` is typed by the route's own error
 * envelopes, so `if (e.body.error.code === 'state.revision_conflict') e.body.error.details.current_revision`
 * type-checks; `code`, `details` and `requestId` are the same fields for code that does not narrow.
 */
export class LpaError<E extends Envelope = Envelope> extends Error {
  readonly code: E['error']['code'];
  readonly details: E['error']['details'];
  readonly requestId: string;

  constructor(
    readonly status: number,
    readonly body: E,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message}`);
    this.name = 'LpaError';
    this.code = body.error.code;
    this.details = body.error.details;
    this.requestId = body.request_id;
  }
}

const isEnvelope = (body: unknown): body is Envelope =>
  typeof (body as Envelope | null)?.error?.code === 'string' && typeof (body as Envelope).error.message === 'string';

/** A client of the LPA service at `baseUrl` (`http://127.0.0.1:8719` by default) with `token` as its bearer token. */
export function createLpaClient({
  baseUrl = 'http://127.0.0.1:8719',
  token,
  ...options
}: { baseUrl?: string; token: string } & Omit<ClientOptions, 'baseUrl'>): Client<paths> {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, authorization: `Bearer ${token}` },
  });
}

/**
 * The answer of a call, or an LpaError carrying the envelope of its refusal:
 * `const profile = await ok(lpa.POST('/api/v1/profiles', { body: { name: 'shop' } }))`.
 * A route that answers 204 gives `undefined`.
 */
export async function ok<T, E>(call: Promise<{ data?: T; error?: E; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error === undefined && response.ok) return data as T;
  if (isEnvelope(error)) throw new LpaError(response.status, error as E & Envelope);
  throw new LpaError(response.status, {
    error: {
      code: UNEXPECTED_ANSWER,
      message: `the service answered HTTP ${response.status} without an LPA error envelope`,
      details: { body: typeof error === 'string' ? error.slice(0, 500) : error },
    },
    request_id: response.headers.get('x-request-id') ?? '',
  });
}
