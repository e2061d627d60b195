/** A JSON client for a running service over real HTTP (Node's fetch: keep-alive, one socket per caller). */
export interface ApiAnswer {
  status: number;
  json: any;
  /** The body as it came, for a failure's message. */
  text: string;
}

/** A call's method, JSON body and, in place of the client's own, another token. */
export interface ApiInit {
  method?: string;
  body?: unknown;
  token?: string;
}

export function apiClient(port: number, token: string, timeoutMs = 15_000) {
  return async (path: string, init: ApiInit = {}): Promise<ApiAnswer> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token ?? token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined, text };
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/**
 * The client of a service a test starts later (in `beforeAll`): each call takes its port and token
 * then. Its calls wait as long as a browser's start may take.
 */
export function laterApiClient(service: () => { port: number; token: string }, timeoutMs = 120_000): ApiClient {
  return (path, init) => apiClient(service().port, service().token, timeoutMs)(path, init);
}
