import { call, freshIp } from './support/api';
import { contractSuite, type Transport } from './support/contract';

/** The contract of the live document, inside workerd (the runtime of `npm start`). */
const transport: Transport = (path, { fresh, ...options } = {}) =>
  call(path, { ...options, clientIp: fresh ? freshIp() : undefined });

contractSuite(
  'the live OpenAPI document against the live service',
  (await call('/api/v1/openapi.json')).json,
  transport,
);
