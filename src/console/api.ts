/**
 * Every call the console makes goes through here: the public API under the page's own origin, the
 * token as `Authorization: Bearer`, and every failure turned into an `ApiFailure` that carries the
 * error envelope's code and message.
 */

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

/** A path segment, encoded: ids and names come from the user or the API, never trusted to be URL-safe. */
export const segment = (value: string | number) => encodeURIComponent(String(value));

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

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Api {
  call<T>(method: Method, path: string, options?: { query?: Query; body?: unknown }): Promise<T>;
  get<T>(path: string, query?: Query): Promise<T>;
}

export function createApi(token: string | null, fetcher: typeof fetch = (input, init) => fetch(input, init)): Api {
  async function call<T>(
    method: Method,
    path: string,
    { query, body }: { query?: Query; body?: unknown } = {},
  ): Promise<T> {
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
    return parsed as T;
  }
  return { call, get: (path, query) => call('GET', path, { query }) };
}
