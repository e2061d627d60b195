/**
 * Every call the console makes goes through here: the public API under the page's own origin, the
 * token as `Authorization: Bearer`, and every failure turned into an `ApiFailure` that carries the
 * error envelope's code and message. The pages call a route by its method and path as its contract
 * declares them (`Api`, typed from src/contracts); the contracts are imported as types only, so
 * nothing of them or of zod reaches the bundle.
 */
import type { Families } from '../contracts';
import type { AnswerOf, CallPart, Contract, In, Method, OptionalWhenEmpty } from '../contracts/define';

/** The API's error envelope (docs/spec.md, Error envelope). */
interface ErrorEnvelope {
  error: { code: string; message: string; details?: Record<string, unknown> | null };
  request_id?: string | null;
}

/** Codes of the console's own, for a failure that never reached the API's envelope. */
export const UNREACHABLE = 'console.unreachable';
export const NOT_AN_ENVELOPE = 'console.unexpected_answer';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly requestId: string | null = null,
  ) {
    super(message);
  }

  /** The scopes a 403 `auth.scope_missing` names; empty for every other failure. */
  get missingScopes(): string[] {
    const missing = this.code === 'auth.scope_missing' ? this.details?.missing : undefined;
    return Array.isArray(missing) ? missing.map(String) : [];
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

/** The path with its query; empty and null values are left out, so a blank filter is no filter. */
export function apiPath(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as ErrorEnvelope | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** The failure an answer that is not 2xx stands for. */
export function failureOf(status: number, body: unknown): ApiFailure {
  if (isEnvelope(body))
    return new ApiFailure(
      status,
      body.error.code,
      body.error.message,
      body.error.details ?? null,
      body.request_id ?? null,
    );
  return new ApiFailure(status, NOT_AN_ENVELOPE, `The service answered HTTP ${status} without an error envelope.`);
}

/** One exchange with the service, untyped: the pages call the routes through `Api`, which types it. */
export interface Transport {
  call(method: Method, path: string, options?: { query?: Query; body?: unknown }): Promise<unknown>;
  get(path: string, query?: Query): Promise<unknown>;
}

export function createApi(
  token: string | null,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): Transport {
  async function call(
    method: Method,
    path: string,
    { query, body }: { query?: Query; body?: unknown } = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetcher(apiPath(path, query), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch (error) {
      throw new ApiFailure(0, UNREACHABLE, `The service did not answer: ${String(error)}`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ApiFailure(
        response.status,
        NOT_AN_ENVELOPE,
        `The service answered HTTP ${response.status} with something that is not JSON.`,
      );
    }
    if (!response.ok) throw failureOf(response.status, parsed);
    return parsed;
  }
  return { call, get: (path, query) => call('GET', path, { query }) };
}

/** Every route the service declares (src/contracts), with its method and path as literal types. */
type Route = { [F in keyof Families]: Families[F][keyof Families[F]] }[keyof Families];
/** The paths some contract declares for a method, `:name` for a path parameter. */
export type PathOf<M extends Method> = Extract<Route, { method: M }>['path'];
type RouteOf<M extends Method, P> = Extract<Route, { method: M; path: P }>;

/** Query values travel as text: a field takes text, or the number or boolean it spells; null leaves it out. */
type QueryIn<T> = { [K in keyof T]: string | number | boolean | null };

type InputOf<M extends Method, P> =
  RouteOf<M, P> extends Contract<infer Params, infer Q, infer B>
    ? CallPart<'params', Params, In<Params>> & CallPart<'query', Q, QueryIn<In<Q>>> & CallPart<'body', B, In<B>>
    : never;
/** What a call of a route sends: its path parameters, query and body, typed by its contract's schemas. */
export type Input<M extends Method, P extends PathOf<M>> = InputOf<M, P>;
/** A route's answer, as its contract's response schema types it (undefined for 204). */
export type Answer<M extends Method, P extends PathOf<M>> = AnswerOf<RouteOf<M, P>>;

/**
 * The console's calls, openapi-fetch style: `api.call('GET', '/api/v1/profiles/:id', { params: { id } })`.
 * Only a method and path that some contract declares compile; the input and the answer are typed by
 * that contract's schemas.
 */
export interface Api {
  call<M extends Method, P extends PathOf<M>>(
    method: M,
    path: P,
    ...[input]: OptionalWhenEmpty<InputOf<M, P>>
  ): Promise<AnswerOf<RouteOf<M, P>>>;
}

/** The routes over a transport; each `:name` of the path is filled in, encoded (ids and names come from the user or the API). */
export function typedApi(transport: Transport): Api {
  const call = (
    method: Method,
    path: string,
    { params = {}, query, body }: { params?: Record<string, string>; query?: Query; body?: unknown } = {},
  ) =>
    transport.call(
      method,
      path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name]))),
      { query, body },
    );
  return { call: call as Api['call'] };
}
