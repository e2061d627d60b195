import { exports } from 'cloudflare:workers';
import { BASE_URL, TEST_ADMIN_TOKEN } from './constants';

export interface CallOptions {
  method?: string;
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  clientIp?: string;
  /** Who answers: the service under test unless told otherwise. */
  fetcher?: { fetch: (url: string, init: RequestInit) => Promise<Response> };
}

let ipCounter = 0;
/**
 * A loopback address of its own for each caller that asks, so throttle tests never meet. Never in
 * 127.0.x.x, where the default client (127.0.0.1) lives.
 */
export function freshIp(): string {
  ipCounter += 1;
  return `127.${1 + ((ipCounter >> 16) & 127)}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** One request to the service as a local client makes it; the admin token unless told otherwise. */
export async function call(path: string, options: CallOptions = {}) {
  // A real HTTP client always sends Host; a fetch inside workerd does not, so it is set here.
  const headers: Record<string, string> = { host: new URL(BASE_URL).host, ...options.headers };
  const token = options.token === undefined ? TEST_ADMIN_TOKEN : options.token;
  if (token !== null) headers.authorization ??= `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await (options.fetcher ?? exports.default).fetch(`${BASE_URL}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
    cf: { clientIp: options.clientIp ?? '127.0.0.1' },
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined, text };
}

/** Issues a token with the given scopes through the API, as a user would. */
export async function tokenWith(scopes: string[], name = `t-${crypto.randomUUID()}`) {
  const res = await call('/api/v1/tokens', { method: 'POST', body: { name, scopes } });
  if (res.status !== 201) throw new Error(`token creation failed: ${res.text}`);
  return res.json as { id: string; token: string; name: string };
}
