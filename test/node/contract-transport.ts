import type { Transport } from '../support/contract';
import { raw, type RunningService } from './service';

/**
 * The contract suite's transport to a service over HTTP (test/node/contract-runtimes.test.ts,
 * test/node/contract-team-mode.test.ts): the service's admin token unless the call says otherwise,
 * and each `fresh` call from a loopback address of its own.
 */
export function transportTo(service: RunningService): Transport {
  let clients = 0;
  return async (path, { method = 'GET', token, body, headers = {}, fresh } = {}) => {
    const sent: Record<string, string> = { ...headers };
    const bearer = token === undefined ? service.token : token;
    if (bearer !== null) sent.authorization ??= `Bearer ${bearer}`;
    if (body !== undefined) sent['content-type'] ??= 'application/json';
    clients += 1;
    const answer = await raw(service.port, path, {
      method,
      headers: sent,
      body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
      // A loopback address of its own, so that the denials of this test never reach the throttle.
      localAddress: fresh ? `127.0.${100 + Math.floor(clients / 250)}.${1 + (clients % 250)}` : undefined,
    });
    // Case-insensitive, as Headers.get is: Node keeps the names in lower case.
    const get = (name: string) => {
      const value = answer.headers[name.toLowerCase()];
      return value === undefined ? null : String(value);
    };
    return { ...answer, headers: { get } };
  };
}
