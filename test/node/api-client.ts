/** A JSON client for a running service over real HTTP (Node's fetch: keep-alive, one socket per caller). */
export interface ApiAnswer {
  status: number;
  json: any;
}

export function apiClient(port: number, token: string, timeoutMs = 15_000) {
  return async (path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiAnswer> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
