import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url } from '../src/shared/base64';
import { fileNameProblem } from '../src/shared/file-name';
import { encodeShareCode } from '../storage/shares/share-code';
import { ERROR_CATALOG } from '../src/shared/errors/catalog';
import { CONTRACTS, TEAM_FRONT_CONTRACTS } from '../src/contracts';
import type { Contract } from '../src/contracts/define';
import { TEAM_ID_PATTERN } from '../src/shared/team-path';
import { teamOpenapiDocument } from '../src/teams/openapi';
import { TEAM_ROUTES } from '../src/teams/routes';
import { call, tokenWith } from './support/api';

const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const scopesOf = (route: Contract) => [...(route.scopes ?? [])];

/** What a document must say of one route it describes. */
interface Described {
  route: Contract;
  /** Its path in the document. */
  path: string;
  security: unknown;
  /** Whether its answers document `X-LPA-Team-Head`. */
  teamHead: boolean;
  /** Codes its service adds to what the route's declaration implies, by status. */
  added: Record<string, string[]>;
  /** Codes its declaration implies, or another service adds, that this service never answers on it. */
  never: string[];
}

/**
 * The two documents, built by one builder from the same contracts (src/openapi/document.ts): the local
 * service's as it serves it, the team service's as src/teams/openapi.ts builds it (test/teams/openapi.test.ts
 * checks that its Worker serves exactly that). Each with the routes it describes and what it says
 * of them; where the two differ, each entry says why.
 */
const DOCUMENTS = [
  {
    service: 'the local service (GET /api/v1/openapi.json)',
    load: async () => (await call('/api/v1/openapi.json')).json,
    described: CONTRACTS.map(
      (route): Described => ({
        route,
        path: openapiPath(route.path),
        security: route.access === 'public' ? [] : [{ bearerAuth: scopesOf(route) }],
        // A team route's answer may be the team's (docs/teams.md#a-machine-in-a-team), or that the team did not answer.
        teamHead: route.home === 'team',
        added: route.home === 'team' ? { '503': ['team.unreachable'], '502': ['team.bad_answer'] } : {},
        never: [],
      }),
    ),
    /** A route the bounds test reads: a machine's log settings. */
    sample: {
      path: '/api/v1/settings/logs',
      body: 'LogRetentionPatch',
      schema: {
        type: 'object',
        properties: {
          retention_days: { type: 'integer', format: 'int32', minimum: 1, maximum: 365 },
          kernel_retention_days: { type: 'integer', format: 'int32', minimum: 1, maximum: 365 },
        },
        additionalProperties: false,
      },
      security: [{ bearerAuth: ['settings:write'] }],
      responses: ['200', '400', '401', '403', '408', '413', '415', '421', '429', '500'],
    },
    /** Where a route declared at `path` is in the document. */
    at: (path: string) => path,
  },
  {
    service: 'the team service (GET /v1/openapi.json)',
    load: async () => teamOpenapiDocument(),
    described: [
      // The front's own routes, at their own paths; the operator token's principal is always an admin session.
      ...TEAM_FRONT_CONTRACTS.map(
        (route): Described => ({
          route,
          path: openapiPath(route.path),
          security: route.access === 'public' ? [] : [{ operatorToken: scopesOf(route) }],
          teamHead: false,
          added: {},
          never: ['auth.admin_required', 'team.unreachable', 'team.bad_answer'],
        }),
      ),
      // Every team's routes under /teams/{team_id}: a team token or a member's Access assertion, the
      // front's 404 for a team nobody created, Access's 403 for someone not a member, the team
      // object's chain head on its answers; the team service forwards nothing, so never the codes of a
      // machine whose team did not answer.
      ...TEAM_ROUTES.map(
        (route): Described => ({
          route,
          path: `/teams/{team_id}${openapiPath(route.path)}`,
          security: [{ teamToken: scopesOf(route) }, { accessAssertion: scopesOf(route) }],
          teamHead: true,
          added: { '404': ['team.not_found'], '403': ['auth.not_member'] },
          never: ['team.unreachable', 'team.bad_answer'],
        }),
      ),
    ],
    /** A machine's log settings are not a team's: the team's audit settings instead. */
    sample: {
      path: '/api/v1/settings/audit',
      body: 'AuditRetentionWrite',
      schema: {
        type: 'object',
        properties: { retention_days: { type: 'integer', format: 'int32', minimum: 30, maximum: 1095 } },
        required: ['retention_days'],
        additionalProperties: false,
      },
      security: [{ teamToken: ['settings:write'] }, { accessAssertion: ['settings:write'] }],
      // 404: `team.not_found`, for a team no operator created.
      responses: ['200', '400', '401', '403', '404', '408', '413', '415', '421', '429', '500'],
    },
    at: (path: string) => `/teams/{team_id}${path}`,
  },
];

describe('GET /api/v1/openapi.json', () => {
  it('needs a token but no scope', async () => {
    expect((await call('/api/v1/openapi.json', { token: null })).status).toBe(401);
    const { token } = await tokenWith([]);
    expect((await call('/api/v1/openapi.json', { token })).status).toBe(200);
  });
});

describe('both OpenAPI documents', () => {
  it('describe each operation the same way, but for where and how their services serve it', async () => {
    const [local, team] = await Promise.all(DOCUMENTS.map((d) => d.load()));
    // Every component the team document has beside the local one is identical: one declaration, one schema.
    for (const [name, schema] of Object.entries(team.components.schemas))
      if (name in local.components.schemas) expect(schema, name).toEqual(local.components.schemas[name]);
    // The routes both serve (a team's but its members and its import) have the same operationIds,
    // summaries, tags, audit actions and bodies in both, and the same parameters after the team's id.
    const both = TEAM_ROUTES.filter((r) => CONTRACTS.some((c) => c.method === r.method && c.path === r.path));
    expect(both.length).toBeGreaterThan(30);
    for (const route of both) {
      const method = route.method.toLowerCase();
      const {
        parameters: localParameters,
        security: _l,
        responses: _lr,
        ...inLocal
      } = local.paths[openapiPath(route.path)][method];
      const {
        parameters: teamParameters,
        security: _t,
        responses: _tr,
        ...inTeam
      } = team.paths[`/teams/{team_id}${openapiPath(route.path)}`][method];
      expect(inTeam, `${route.method} ${route.path}`).toEqual(inLocal);
      expect(teamParameters.slice(1), `${route.method} ${route.path}`).toEqual(localParameters);
    }
  });
});

describe.each(DOCUMENTS)('the OpenAPI document of $service', ({ load, described, sample, at }) => {
  it('is an OpenAPI 3.1.0 document of version 0.5.12 describing every declared route', async () => {
    const doc = await load();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.5.12');
    for (const { route, path, security, teamHead, added, never } of described) {
      const where = `${route.method} ${path}`;
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, where).toBeDefined();
      expect(op.security, where).toEqual(security);
      expect(Object.keys(op.responses)).toContain(String(route.status ?? 200));
      expect(op.responses[String(route.status ?? 200)].headers['X-LPA-Team-Head'] !== undefined, where).toBe(teamHead);
      for (const [status, codes] of Object.entries(added))
        for (const code of codes) expect(op.responses[status]?.description, where).toContain(`\`${code}\``);
      const listed = Object.values(op.responses as Record<string, { description: string }>)
        .map((r) => r.description)
        .join(' ');
      for (const code of never) expect(listed, where).not.toContain(`\`${code}\``);
      // A team's id comes first, as it comes first in the path, with the pattern the Worker reads ids with.
      if (path.startsWith('/teams/'))
        expect(op.parameters[0], where).toMatchObject({
          name: 'team_id',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: `^${TEAM_ID_PATTERN}$`, maxLength: 63 },
        });
    }
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((p) => Object.keys(p));
    expect(operations).toHaveLength(described.length);
  });

  it('documents bounds, strictness, scopes and error answers of a route', async () => {
    const doc = await load();
    const put = doc.paths[at(sample.path)].put;
    expect(put.security).toEqual(sample.security);
    expect(put.requestBody.content['application/json'].schema).toEqual({
      $ref: `#/components/schemas/${sample.body}`,
    });
    expect(doc.components.schemas[sample.body]).toEqual(sample.schema);
    expect(Object.keys(put.responses).sort()).toEqual(sample.responses);
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
    const revoke = doc.paths[at('/api/v1/tokens/{id}')].delete;
    expect(revoke.parameters.filter((p: { name: string }) => p.name !== 'team_id')).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
    ]);
    expect(revoke.responses['404'].description).toContain('resource.not_found');
  });

  it('carries the whole error-code catalogue', async () => {
    const doc = await load();
    expect(doc['x-error-catalog']).toEqual(
      Object.entries(ERROR_CATALOG).map(([code, { status, message }]) => ({ code, status, message })),
    );
  });

  it('names every request and answer body, and leaves out of `required` what has a default', async () => {
    const doc = await load();
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
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
    // Under a team, the team's id is the one parameter it needs.
    const list = doc.paths[at('/api/v1/profiles')].get.parameters;
    expect(list.filter((p: { required: boolean; name: string }) => p.required && p.name !== 'team_id')).toEqual([]);
  });

  it('says uniqueItems wherever the server refuses repeated items', async () => {
    const s = (await load()).components.schemas;
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
    const doc = await load();
    // A team keeps no automation files (they are a machine's): the file names only where files are served.
    if (doc.paths[at('/api/v1/automation/files/content')]) expectFileNamePattern(doc);

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

/** The file-name pattern of the automation files' routes is exactly what the service accepts as a file name. */
function expectFileNamePattern(doc: any) {
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
}
