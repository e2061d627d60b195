import { z } from 'zod';
import { defineContract } from './define';

/** The answer of the document route: any JSON object; the document itself is checked by linters. */
export const OpenApiDocument = z
  .record(z.string(), z.unknown())
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1.0 document' });

export const openapi = {
  document: defineContract({
    method: 'GET',
    path: '/api/v1/openapi.json',
    home: 'local',
    tag: 'System',
    summary: 'This OpenAPI 3.1 document, derived from the route declarations',
    response: OpenApiDocument,
  }),
};
