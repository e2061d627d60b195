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

/**
 * The team service's own document (docs/teams.md#routes), which its front serves beside `GET /status`
 * (src/teams/team-front.ts): not a route of the local service, so not in FAMILIES (./index.ts). Public,
 * as the code it is derived from is: it holds no team's data.
 */
export const teamOpenapi = {
  document: defineContract({
    method: 'GET',
    path: '/v1/openapi.json',
    home: 'team',
    tag: 'System',
    summary: 'This OpenAPI 3.1 document of the team service, derived from the route declarations; needs no token',
    access: 'public',
    response: OpenApiDocument,
  }),
};
