import { z } from 'zod';
import { HOST_OPERATION_LIST, type HostOperation } from '../operations';
import { HostRefusal, type HostPort } from '../port';

export type HostHandler = (request: Request) => Promise<Response>;

type Call = { operation: HostOperation; method: (...args: unknown[]) => Promise<unknown> };

/**
 * The host port served over HTTP, as the declarations in operations.ts say: the launcher serves it
 * on a unix socket for workerd, and the tests hand it to Miniflare as a service binding. Arguments
 * that do not decode, and calls the implementation refuses, are answered 400; anything else that
 * fails, 500.
 */
export function hostServer(host: HostPort): HostHandler {
  const calls = new Map<string, Call>();
  for (const { group, name, path, operation } of HOST_OPERATION_LIST) {
    const methods = host[group] as Record<string, Call['method']>;
    calls.set(path, { operation, method: methods[name]!.bind(methods) });
  }
  return async (request) => {
    const call = request.method === 'POST' ? calls.get(new URL(request.url).pathname) : undefined;
    if (!call) return Response.json({ error: 'no such host operation' }, { status: 404 });
    const args = call.operation.args.safeParse(await request.json().catch(() => undefined));
    if (!args.success) return Response.json({ error: 'bad arguments', issues: args.error.issues }, { status: 400 });
    try {
      return Response.json({ result: z.encode(call.operation.result, await call.method(...args.data)) });
    } catch (error) {
      if (error instanceof HostRefusal) return Response.json({ error: error.message }, { status: 400 });
      return Response.json({ error: String(error) }, { status: 500 });
    }
  };
}
