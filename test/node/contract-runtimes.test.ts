import { afterAll } from 'vitest';
import { contractSuite, type Transport } from '../support/contract';
import { raw, RUNTIMES, startService, type RunningService } from './service';

/**
 * The same contract against the other runtimes (`npm run start:bun`, `npm run start:deno`) over
 * HTTP: the document each serves and every answer it gives agree, as they do under workerd
 * (test/contract.test.ts).
 */
function transportTo(service: RunningService): Transport {
  let clients = 0;
  return (path, { method = 'GET', token, body, headers = {}, fresh } = {}) => {
    const sent: Record<string, string> = { ...headers };
    const bearer = token === undefined ? service.token : token;
    if (bearer !== null) sent.authorization ??= `Bearer ${bearer}`;
    if (body !== undefined) sent['content-type'] ??= 'application/json';
    clients += 1;
    return raw(service.port, path, {
      method,
      headers: sent,
      body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
      // A loopback address of its own, so that the denials of this test never reach the throttle.
      localAddress: fresh ? `127.0.${100 + Math.floor(clients / 250)}.${1 + (clients % 250)}` : undefined,
    });
  };
}

for (const runtime of RUNTIMES.filter((r) => r !== 'workerd')) {
  const service = await startService(runtime);
  afterAll(async () => {
    await service.stop();
  });
  const transport = transportTo(service);
  contractSuite(`the OpenAPI document of the ${runtime} runtime against that runtime`, (await transport('/api/v1/openapi.json')).json, transport);
}
