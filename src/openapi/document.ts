import { ERROR_CATALOG, type ErrorCode } from '../shared/errors/catalog';
import { TEAM_HEAD_VALUE } from '../shared/schemas/team';
import { codeEnvelope } from '../shared/errors/envelope';
import type { Contract, Schema } from '../contracts/define';
import { byStatus, forwardingErrors, routeErrorCodes } from './errors';
import { SchemaCollector, type JsonSchema } from './json-schema';

export type { JsonSchema } from './json-schema';

/** The version of the machine-readable description that the spec fixes. */
export const OPENAPI_INFO_VERSION = '0.5.12';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  421: 'Misdirected request',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** Every answer, success or error, carries the CORS header when the request came from an allowed origin. */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': {
    description:
      'The Origin of the request, echoed when it is one of LPA_ALLOWED_ORIGINS; absent for requests without an Origin.',
    schema: { type: 'string', format: 'uri', maxLength: 2048 },
  },
};

const RETRY_AFTER = {
  description: 'Seconds until the block of the client address is lifted (a block lasts one minute).',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60 },
};

const TEAM_RETRY_AFTER = {
  ...RETRY_AFTER,
  description: 'With `team.unreachable`: seconds after which the request may be sent again (nothing was queued).',
};

/** `X-LPA-Team-Head`, the team chain's head: what its value is, with what a service says of when it is sent. */
export const teamHeadHeader = (description: string): JsonSchema => ({
  description,
  schema: { type: 'string', pattern: TEAM_HEAD_VALUE.source, maxLength: 80 },
});

const TEAM_HEAD = teamHeadHeader(
  "On a machine in a team, on each answer the team gave: the team chain's head after the request, `<seq>,<hash>`, what the machine " +
    'keeps as a witness of the team history. Absent on a solo machine and on answers the machine gave itself (a local refusal, `team.unreachable`).',
);

/**
 * How a service serves one route, beyond what the route declares: where, with which credentials,
 * and what the service adds to its answers. The local service's is `localMount`; the team service's
 * are in src/teams/openapi.ts.
 */
export interface Mount {
  /** Put before the route's declared path, with the schema of its own path parameters (a team's `/teams/:team_id`). */
  prefix?: { path: string; params: Schema };
  /** The security schemes of `components.securitySchemes`, any one of which calls the route, each with the route's scopes. */
  schemes: readonly string[];
  /** Error codes the service answers on the route beyond what its declaration implies (listed before its own `errors`). */
  errors: readonly ErrorCode[];
  /** Codes the declaration implies that the service never answers on the route. */
  never?: readonly ErrorCode[];
  /** Headers every answer of the route may carry, beside CORS. */
  headers: JsonSchema;
}

/** A route as a service serves it. */
export type Mounted = Mount & { route: Contract };

/** What a service's document says of the service: its name, where it is, how its callers authenticate, and its routes. */
export interface Service {
  title: string;
  description: string;
  server: { url: string; description: string; internal: boolean };
  securitySchemes: Record<string, JsonSchema>;
  /** Every route it serves, in the document's order. */
  routes: readonly Mounted[];
}

/**
 * How the local service serves a route: at its declared path, with an LPA token; a `home: 'team'`
 * route of a machine in a team may be answered by the team (its chain head), or by the machine when
 * the team does not answer (./errors.ts `forwardingErrors`).
 */
export const localMount = (route: Contract): Mounted => ({
  route,
  schemes: ['bearerAuth'],
  errors: forwardingErrors(route),
  headers: route.home === 'team' ? { 'X-LPA-Team-Head': TEAM_HEAD } : {},
});

/** The headers any answer of a route may carry: CORS, and what its service adds. */
const answerHeaders = (mount: Mount): JsonSchema => ({ ...CORS_HEADERS, ...mount.headers });

/** The headers of an error answer: `Retry-After` where the answer tells when to try again. */
function errorHeaders(mount: Mount, status: number, codes: readonly ErrorCode[]): JsonSchema {
  if (status === 429) return { ...answerHeaders(mount), 'Retry-After': RETRY_AFTER };
  if (codes.includes('team.unreachable')) return { ...answerHeaders(mount), 'Retry-After': TEAM_RETRY_AFTER };
  return answerHeaders(mount);
}

const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/**
 * The operationId of a route in the document; the MCP server (src/cli/mcp) names its tools by it. It is
 * made of the route's declared path, not of the prefix a service serves it under: a team route has the
 * same id in the team service's document as in the local one.
 */
export function operationId(route: Contract): string {
  const words = route.path
    .split('/')
    .filter((s) => s && s !== 'api' && s !== 'v1')
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .flatMap((s) => s.split(/[-_.]/));
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function parameters({ route, prefix }: Mounted, schemas: SchemaCollector): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', prefix?.params],
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const object = schemas.convert(schema, 'output') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      out.push({
        name,
        in: where,
        // zod's output lists a defaulted field as required (it always has a value once parsed); the
        // client may leave it out.
        required: where === 'path' || ((object.required ?? []).includes(name) && !('default' in property)),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

/**
 * The envelope of each code this answer can carry, by name: a client narrows `details` by `code`.
 * `anyOf`: the branches exclude each other by their `error.code` constant, but that sits one level
 * down, where linters cannot see it and would call a `oneOf` ambiguous.
 */
function errorSchema(codes: readonly ErrorCode[], schemas: SchemaCollector): JsonSchema {
  const refs = codes.map((code) => schemas.convert(codeEnvelope(code), 'output'));
  return refs.length === 1 ? refs[0]! : { anyOf: refs };
}

function operation(mount: Mounted, schemas: SchemaCollector): JsonSchema {
  const { route } = mount;
  const status = route.status ?? 200;
  const responses: Record<string, JsonSchema> = {
    [status]: route.response
      ? {
          description: STATUS_TEXT[status],
          headers: answerHeaders(mount),
          content: { 'application/json': { schema: schemas.convert(route.response, 'output') } },
        }
      : { description: STATUS_TEXT[status], headers: answerHeaders(mount) },
  };
  for (const [code, codes] of byStatus(routeErrorCodes(route, mount.errors, mount.never))) {
    responses[code] = {
      description: `${STATUS_TEXT[code] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
      headers: errorHeaders(mount, code, codes),
      content: { 'application/json': { schema: errorSchema(codes, schemas) } },
    };
  }
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: route.access === 'public' ? [] : mount.schemes.map((scheme) => ({ [scheme]: [...(route.scopes ?? [])] })),
    ...(route.access === 'admin' ? { 'x-admin-only': true } : {}),
    ...(route.audit ? { 'x-audit-action': route.audit } : {}),
    parameters: parameters(mount, schemas),
    ...(route.body
      ? {
          requestBody: {
            required: route.bodyOptional !== true,
            content: { 'application/json': { schema: schemas.convert(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/** The local service's OpenAPI 3.1 document (GET /api/v1/openapi.json), derived entirely from the route contracts and the error catalogue. */
export function openapiDocument(routes: readonly Contract[], serverUrl: string): JsonSchema {
  return serviceDocument({
    title: 'LPA: local profile, automation and audit API',
    description:
      'The local HTTP/JSON API of a multi-profile browser. Every route except GET /status needs a bearer token; ' +
      'the scopes a route lists under `security` are all required, and an admin session satisfies every scope check. ' +
      ERRORS_DESCRIPTION,
    // internal: the service listens on the loopback interface of the user's own machine only.
    server: { url: serverUrl, description: 'The local service on the loopback interface', internal: true },
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An LPA token (see POST /api/v1/tokens).' },
    },
    routes: routes.map(localMount),
  });
}

/** What every document says of its error answers. */
export const ERRORS_DESCRIPTION =
  'Every failure is an error envelope `{ error: { code, message, details }, request_id }`: each code has its own component ' +
  '(`<Code>Error`, its `details` typed), each error answer lists exactly the codes the operation can give, and ' +
  '`x-error-catalog` lists every code with its HTTP status.';

/**
 * A service's OpenAPI 3.1 document, derived from the contracts of the routes it serves, how it serves
 * each (`Mount`) and the error catalogue: the local service's (`openapiDocument`) and the team
 * service's (src/teams/openapi.ts).
 */
export function serviceDocument(service: Service): JsonSchema {
  const schemas = new SchemaCollector();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const mount of service.routes) {
    const path = openapiPath((mount.prefix?.path ?? '') + mount.route.path);
    (paths[path] ??= {})[mount.route.method.toLowerCase()] = operation(mount, schemas);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: service.title,
      version: OPENAPI_INFO_VERSION,
      description: service.description,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      { url: service.server.url, description: service.server.description, 'x-internal': service.server.internal },
    ],
    tags: [...new Set(service.routes.map(({ route }) => route.tag))].map((name) => ({
      name,
      description: `${name} routes`,
    })),
    paths,
    components: {
      securitySchemes: service.securitySchemes,
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
    },
    'x-error-catalog': Object.entries(ERROR_CATALOG).map(([code, { status, message }]) => ({ code, status, message })),
  };
}
