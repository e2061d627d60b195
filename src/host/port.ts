import { z } from 'zod';
import { HOST_OPERATION_LIST, type HostGroup, type HostOperations } from './operations';

/** An operation as the port's method: its decoded arguments in, its decoded result out. */
type Method<O> = O extends { args: infer A extends z.ZodTuple; result: infer R extends z.ZodType }
  ? (...args: z.output<A>) => Promise<z.output<R>>
  : never;

/**
 * What LPA needs from the machine it runs on, one concern per member, derived from the declarations
 * in operations.ts. Under workerd the launcher serves the Node implementation (src/host/node) and the
 * worker reaches it through a service binding with `hostClient`; under Bun or Deno the Node
 * implementation is called directly. Nothing else in the service touches the machine.
 */
export type HostPort = { [G in HostGroup]: { [N in keyof HostOperations[G]]: Method<HostOperations[G][N]> } };

/** A call the host refuses (a name that is not one of its files, arguments out of shape); on the wire, HTTP 400. */
export class HostRefusal extends Error {}

/** Anything with a fetch: a workerd service binding, say. */
export interface HostFetcher {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export const HOST_BASE = 'http://host';

/**
 * The host port over a fetcher: each method encodes its arguments as its declaration says, posts
 * them, and decodes the result. A refusal rejects with HostRefusal, any other failure with an Error
 * naming the status: for the caller, an internal error of the service.
 */
export function hostClient(fetcher: HostFetcher): HostPort {
  const port: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const { group, name, path, operation } of HOST_OPERATION_LIST) {
    (port[group] ??= {})[name] = async (...args) => {
      const body = JSON.stringify(z.encode(operation.args, args));
      const response = await fetcher.fetch(`${HOST_BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (response.status === 400) throw new HostRefusal(`host ${path}: HTTP 400 ${await response.text()}`);
      if (!response.ok) throw new Error(`host ${path}: HTTP ${response.status}`);
      return z.decode(operation.result, ((await response.json()) as { result: unknown }).result);
    };
  }
  return port as HostPort;
}
