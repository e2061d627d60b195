import { openapiDocument, OpenApiDocumentSchema } from '../src/openapi/document';
import { defineRoute, type AnyRoute } from '../src/routes/define';

/**
 * The document route takes the whole table from its caller, since the document describes every
 * route, itself included. It is built once, on first request.
 */
export function openapiRoutes(allRoutes: () => readonly AnyRoute[]): AnyRoute[] {
  let document: Record<string, unknown> | undefined;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/openapi.json',
      tag: 'System',
      summary: 'This OpenAPI 3.1 document, derived from the route declarations',
      response: OpenApiDocumentSchema,
      handler: ({ ctx }) => (document ??= openapiDocument(allRoutes(), `http://127.0.0.1:${ctx.config.port}`)),
    }),
  ];
}
