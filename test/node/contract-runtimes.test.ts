import { afterAll } from 'vitest';
import { contractSuite } from '../support/contract';
import { transportTo } from './contract-transport';
import { RUNTIMES, startService } from './service';

/**
 * The same contract against the other runtimes (`npm run start:bun`, `npm run start:deno`) over
 * HTTP: the document each serves and every answer it gives agree, as they do under workerd
 * (test/contract.test.ts).
 */
for (const runtime of RUNTIMES.filter((r) => r !== 'workerd')) {
  const service = await startService(runtime);
  afterAll(async () => {
    await service.stop();
  });
  const transport = transportTo(service);
  contractSuite(
    `the OpenAPI document of the ${runtime} runtime against that runtime`,
    (await transport('/api/v1/openapi.json')).json,
    transport,
  );
}
