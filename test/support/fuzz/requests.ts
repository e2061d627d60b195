import fc from 'fast-check';
import { openapiDocument } from '../../../src/openapi/document';
import { CONTRACTS } from '../../../src/contracts';
import type { Contract } from '../../../src/contracts/define';
import { BASE_URL, TEST_ALLOWED_ORIGIN } from '../constants';
import { fuzzValue, type JsonSchema, type SchemaContext } from './schema-values';
import { rawUrlText } from './values';

/** Who a fuzzed request claims to be. */
export type Caller = 'admin' | 'none' | 'garbage' | 'scopeless';

export interface FuzzRequest {
  method: string;
  /** Path and query, as they go on the wire. */
  target: string;
  caller: Caller;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface FuzzTarget {
  route: Contract;
  name: string;
  request: fc.Arbitrary<FuzzRequest>;
}

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: JsonSchema;
}

/** JSON texts that are not JSON, or JSON that parsers choke on. */
const BAD_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"a":',
  '[1,2',
  'nul',
  'undefined',
  'NaN',
  '{"a":1,}',
  "{'a':1}",
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  '{"a":1} x',
  '"\\ud800"',
  '"\\u0000"',
  '1e999',
  '-',
  '{"a":"\\x"}',
  '[]',
  'null',
  'true',
  '0',
  '"text"',
  '['.repeat(5_000) + ']'.repeat(5_000),
  `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`,
];
/** Bytes that are not UTF-8: overlong, surrogate, truncated and stray continuation bytes. */
const BAD_UTF8 = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0x80],
  [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d],
].map((b) => new Uint8Array(b));
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  '',
  'application/json; charset=latin1',
];

const text = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/**
 * Percent-encoding that also carries lone surrogates, as the (invalid) UTF-8 a careless client
 * sends for them, where encodeURIComponent throws.
 */
function percentEncode(value: string): string {
  let out = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    out +=
      char.length === 1 && unit >= 0xd800 && unit <= 0xdfff
        ? [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 63), 0x80 | (unit & 63)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(char);
  }
  return out;
}

/** A path segment: a fuzzed value, percent-encoded as a client would, or raw URL text. */
const segment = (schema: JsonSchema, ctx: SchemaContext) =>
  fc.oneof(
    { weight: 4, arbitrary: fuzzValue(schema, ctx).map((v) => percentEncode(text(v))) },
    { weight: 1, arbitrary: rawUrlText() },
  );

/** One `name=value` pair per value; an array value becomes the parameter given several times. */
function queryPairs(name: string, value: unknown): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v) => queryPairs(name, v));
  return [[name, value === null ? 'null' : text(value)]];
}

function queryString(parameters: Parameter[], ctx: SchemaContext): fc.Arbitrary<string> {
  // As with a body: valid parameters with at most one of them wrong, or all of them fuzzed.
  const object = { type: 'object', properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])) };
  const declared = fuzzValue(object, ctx).map((v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.entries(v).map(([name, value]) => queryPairs(name, value))
      : [],
  );
  const unknown = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom('x', 'limit', '__proto__', ''), rawUrlText()), rawUrlText()),
    { maxLength: 2 },
  );
  return fc
    .tuple(
      declared,
      fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: unknown }),
      fc.boolean(),
    )
    .map(([pairs, extra, encode]) => {
      const all = [...pairs.flat(), ...extra];
      const enc = (s: string) => (encode ? percentEncode(s) : s.replace(/[#\s]/g, encodeURIComponent));
      return all.length ? `?${all.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}` : '';
    });
}

/** A body: mostly a fuzzed JSON value, sometimes broken JSON, duplicate keys or bytes that are not UTF-8. */
function bodyText(schema: JsonSchema | undefined, ctx: SchemaContext): fc.Arbitrary<string | Uint8Array> {
  const value = schema ? fuzzValue(schema, ctx) : fc.constant({});
  const duplicated = value.map((v) => {
    const json = text(v);
    const key = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v)[0] : undefined;
    return key === undefined ? json : `{${JSON.stringify(key)}:"shadowed",${json.slice(1)}`;
  });
  return fc.oneof(
    { weight: 12, arbitrary: value.map(text) },
    { weight: 1, arbitrary: duplicated },
    { weight: 2, arbitrary: fc.constantFrom(...BAD_JSON) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_UTF8) },
  );
}

const headers = (withBody: boolean) =>
  fc
    .tuple(
      withBody
        ? fc.oneof(
            { weight: 10, arbitrary: fc.constant('application/json') },
            { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
          )
        : fc.constant(undefined),
      fc.oneof(
        { weight: 20, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom(TEST_ALLOWED_ORIGIN, 'http://evil.example', 'null') },
      ),
    )
    .map(([type, origin]) => ({
      ...(type === undefined ? {} : { 'content-type': type }),
      ...(origin === undefined ? {} : { origin }),
    }));

const callers = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Caller>('admin') },
  fc.constantFrom<Caller>('none', 'garbage', 'scopeless'),
);

/**
 * One fuzz target per declared route, built from the OpenAPI document that the route table
 * generates: a route added later is fuzzed without anyone touching this file.
 */
export function fuzzTargets(knownIds: () => readonly string[]): FuzzTarget[] {
  const doc = openapiDocument(CONTRACTS, BASE_URL) as any;
  const ctx: SchemaContext = { resolve: (ref) => doc.components.schemas[ref.split('/').pop()!], knownIds };
  return CONTRACTS.map((route) => {
    const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
    const parameters = op.parameters as Parameter[];
    const schemaOf = (name: string) => parameters.find((p) => p.in === 'path' && p.name === name)!.schema;
    const path = fc
      .tuple(
        ...route.path
          .split('/')
          .map((part) => (part.startsWith(':') ? segment(schemaOf(part.slice(1)), ctx) : fc.constant(part))),
      )
      .map((parts) => parts.join('/'));
    const bodySchema = op.requestBody?.content['application/json'].schema as JsonSchema | undefined;
    // Fetch refuses a body on GET; other methods without a declared body sometimes get one anyway.
    const body = bodySchema
      ? bodyText(bodySchema, ctx)
      : route.method === 'GET'
        ? fc.constant(undefined)
        : fc.option(bodyText(undefined, ctx), { nil: undefined, freq: 4 });
    const request = fc
      .record({
        path,
        query: queryString(
          parameters.filter((p) => p.in === 'query'),
          ctx,
        ),
        caller: callers,
        body,
        headers: headers(!!bodySchema),
      })
      .map(
        ({ path, query, caller, body, headers }): FuzzRequest => ({
          method: route.method,
          target: path + query,
          caller,
          headers,
          body,
        }),
      );
    return { route, name: `${route.method} ${route.path}`, request };
  });
}
