/** Small HTTP helpers for the bench: JSON calls against a running service. */
import type { RunningService } from '../test/node/service';

export async function call<T = any>(
  service: RunningService,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; json: T }> {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token ?? service.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

/** Like `call`, but anything other than 200/201 stops the bench with the answer. */
export async function ok<T = any>(
  service: RunningService,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const { status, json } = await call<T>(service, path, init);
  if (status !== 200 && status !== 201)
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${status}: ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}
