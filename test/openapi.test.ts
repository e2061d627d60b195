import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url } from '../src/shared/base64';
import { fileNameProblem } from '../src/shared/file-name';
import { encodeShareCode } from '../storage/shares/share-code';
import { ERROR_CATALOG } from '../src/shared/errors/catalog';
import { CONTRACTS } from '../src/contracts';
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
    for (const route of CONTRACTS) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.security).toEqual(route.access === 'public' ? [] : [{ bearerAuth: route.scopes ?? [] }]);
      expect(Object.keys(op.responses)).toContain(String(route.status ?? 200));
      // A team route's answer may be the team's (docs/teams.md#a-machine-in-a-team), or that the team did not answer.
      const team = route.home === 'team';
      expect(
        op.responses[String(route.status ?? 200)].headers['X-LPA-Team-Head'] !== undefined,
        `${route.method} ${route.path}`,
      ).toBe(team);
      if (team)
        expect(op.responses['503'].description, `${route.method} ${route.path}`).toContain('`team.unreachable`');
      if (team) expect(op.responses['502'].description, `${route.method} ${route.path}`).toContain('`team.bad_answer`');
    }
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((p) => Object.keys(p));
    expect(operations).toHaveLength(CONTRACTS.length);
  });

  it('documents bounds, strictness, scopes and error answers of a route', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;
    const put = doc.paths['/api/v1/settings/logs'].put;
    expect(put.security).toEqual([{ bearerAuth: ['settings:write'] }]);
    expect(put.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/LogRetentionPatch',
    });
    expect(doc.components.schemas.LogRetentionPatch).toEqual({
      type: 'object',
      properties: {
        retention_days: { type: 'integer', format: 'int32', minimum: 1, maximum: 365 },
        kernel_retention_days: { type: 'integer', format: 'int32', minimum: 1, maximum: 365 },
      },
      additionalProperties: false,
    });
    expect(Object.keys(put.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '408',
      '413',
      '415',
      '421',
      '429',
      '500',
    ]);
    expect(put.responses['403'].description).toContain('auth.scope_missing');
    expect(put.responses['429'].headers['Retry-After'].schema).toEqual({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 60,
    });
    expect(put.responses['200'].headers).toHaveProperty('Access-Control-Allow-Origin');
    expect(put.responses['400'].content['application/json'].schema).toEqual({
      anyOf: [
        { $ref: '#/components/schemas/RequestInvalidError' },
        { $ref: '#/components/schemas/RequestMalformedJsonError' },
      ],
    });
    expect(put.responses['403'].content['application/json'].schema.anyOf).toContainEqual({
      $ref: '#/components/schemas/AuthScopeMissingError',
    });
    const scopeMissing = doc.components.schemas.AuthScopeMissingError;
    expect(scopeMissing.properties.request_id).toEqual({ type: 'string' });
    expect(scopeMissing.properties.error.properties.code).toEqual({ type: 'string', const: 'auth.scope_missing' });
    expect(scopeMissing.properties.error.properties.details.required).toEqual(['missing']);
    const revoke = doc.paths['/api/v1/tokens/{id}'].delete;
    expect(revoke.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
    ]);
    expect(revoke.responses['404'].description).toContain('resource.not_found');
  });

  it('carries the whole error-code catalogue', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;
    expect(doc['x-error-catalog']).toEqual(
      Object.entries(ERROR_CATALOG).map(([code, { status, message }]) => ({ code, status, message })),
    );
  });

  it('names every request and answer body, and leaves out of `required` what has a default', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
        const bodies = [op.requestBody, ...Object.values(op.responses as Record<string, any>)].filter(
          (b) => b?.content,
        );
        for (const body of bodies) {
          const schema = body.content['application/json'].schema;
          const refs = schema.$ref ? [schema] : schema.anyOf;
          expect(
            refs.every((r: { $ref?: string }) => r.$ref?.startsWith('#/components/schemas/')),
            `${method} ${path}`,
          ).toBe(true);
        }
        for (const parameter of op.parameters)
          if ('default' in parameter.schema) expect(parameter.required, `${path} ${parameter.name}`).toBe(false);
      }
    }
    const list = doc.paths['/api/v1/profiles'].get.parameters;
    expect(list.filter((p: { required: boolean }) => p.required)).toEqual([]);
  });

  it('says uniqueItems wherever the server refuses repeated items', async () => {
    const s = (await call('/api/v1/openapi.json')).json.components.schemas;
    for (const [schema, field] of [
      ['TokenInput', 'scopes'],
      ['ProfileInput', 'tags'],
      ['ProfilePatch', 'tags'],
      ['NewFlow', 'dependencies'],
      ['NewFlow', 'values'],
      ['NewShare', 'ids'],
      ['ShareImportRequest', 'ids'],
    ]) {
      expect(s[schema!].properties[field!].uniqueItems, `${schema}.${field}`).toBe(true);
    }
  });

  it('states what the service enforces: file-name characters, a non-empty 2FA secret, canonical share codes', async () => {
    const doc = (await call('/api/v1/openapi.json')).json;

    const fileNames = [
      doc.paths['/api/v1/automation/files/content'].get.parameters.find((p: { name: string }) => p.name === 'name')
        .schema,
      doc.components.schemas.AutomationFileWrite.properties.name,
    ];
    for (const schema of fileNames) expect(schema.pattern).toBe(fileNames[0].pattern);
    const namePattern = new RegExp(fileNames[0].pattern, 'u');
    const piece = fc.constantFrom(
      'a',
      'Z',
      '9',
      ' ',
      '-',
      'é',
      '😀',
      '.',
      '/',
      '\\',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u00a0',
    );
    const names = fc.oneof(
      fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    );
    fc.assert(
      fc.property(names, (name) => namePattern.test(name) === (fileNameProblem(name) === null)),
      { numRuns: 2000 },
    );

    for (const schema of ['PlatformAccountInput', 'PlatformAccountPatch']) {
      const secret = doc.components.schemas[schema].properties.totp_secret;
      expect(secret.anyOf ?? [secret], schema).toContainEqual(
        expect.objectContaining({ type: 'string', minLength: 1 }),
      );
    }

    const codePattern = new RegExp(doc.components.schemas.ShareRedeemRequest.properties.code.pattern);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(fc.uuid(), fc.uint8Array({ minLength: 32, maxLength: 32 }), (id, key) => {
        const code = encodeShareCode(id, key);
        expect(codePattern.test(code)).toBe(true);
        for (const last of alphabet) {
          const variant = code.slice(0, -1) + last;
          const decodes = (() => {
            try {
              fromBase64Url(variant.slice(-43));
              return true;
            } catch {
              return false;
            }
          })();
          expect(codePattern.test(variant), variant).toBe(decodes);
        }
      }),
      { numRuns: 50 },
    );
  });
});
