import { CONTRACTS } from '../src/contracts';
import { openapi } from '../src/contracts/openapi';
import { openapiDocument } from '../src/openapi/document';
import { implement } from './implement';

/** The document describes every contract, its own included; it is built once, on first request. */
let document: Record<string, unknown> | undefined;

export const openapiRoutes = implement(openapi, {
  document: ({ ctx }) => (document ??= openapiDocument(CONTRACTS, `http://127.0.0.1:${ctx.config.port}`)),
});
