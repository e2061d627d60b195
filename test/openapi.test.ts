import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../src/errors/catalog';
import { ROUTES } from '../src/routes/table';
import { call, tokenWith } from './support/api';

describe('GET /api/v1/openapi.json', () => {
  it('needs a token but no scope', async () => {
    expect((await call('/api/v1/openapi.json', { token: null })).status).toBe(401);
    const { token } = await tokenWith([]);
    expect((await call('/api/v1/openapi.json', { token })).status).toBe(200);
  });

  it('is an OpenAPI 3.1.0 document of version 0.5.12 describing every declared route', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.5.12');
    for (const route of ROUTES) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.security).toEqual(route.access === 'public' ? [] : [{ bearerAuth: route.scopes ?? [] }]);
      expect(Object.keys(op.responses)).toContain(String(route.status ?? 200));
    }
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((p) => Object.keys(p));
    expect(operations).toHaveLength(ROUTES.length);
  });

  it('documents bounds, strictness, scopes and error answers of a route', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;
    const put = doc.paths['/api/v1/settings/logs'].put;
    expect(put.security).toEqual([{ bearerAuth: ['settings:write'] }]);
    expect(put.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        retention_days: { type: 'integer', format: 'int32', minimum: 1, maximum: 365 },
        kernel_retention_days: { type: 'integer', format: 'int32', minimum: 1, maximum: 365 },
      },
      additionalProperties: false,
    });
    expect(Object.keys(put.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '421', '429', '500']);
    expect(put.responses['403'].description).toContain('auth.scope_missing');
    expect(put.responses['429'].headers['Retry-After'].schema).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 60 });
    expect(put.responses['200'].headers).toHaveProperty('Access-Control-Allow-Origin');
    expect(put.responses['400'].content['application/json'].schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/ErrorEnvelope' },
        { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: ['request.invalid', 'request.malformed_json'] } } } } },
      ],
    });
    expect(doc.components.schemas.ErrorEnvelope.properties.request_id).toEqual({ type: 'string' });
    const revoke = doc.paths['/api/v1/tokens/{id}'].delete;
    expect(revoke.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } }]);
    expect(revoke.responses['404'].description).toContain('resource.not_found');
  });

  it('carries the whole error-code catalogue', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;
    expect(doc['x-error-catalog']).toEqual(Object.entries(ERROR_CATALOG).map(([code, { status, message }]) => ({ code, status, message })));
    expect(doc.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CATALOG));
  });
});
