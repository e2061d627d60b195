import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { call, freshIp, tokenWith } from './api';

/** One request of the contract test and the status it must answer. */
export interface Case {
  status: number;
  path: string;
  body?: unknown;
  /** A raw body, sent as is (with `headers` saying what it is). */
  raw?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
export interface Operation {
  security: { bearerAuth: string[] }[];
  requestBody?: unknown;
  'x-admin-only'?: boolean;
  responses: Record<string, { content?: { 'application/json': { schema: unknown } } }>;
}

/** Every operation of a document, keyed `METHOD /path` as the contract table is. */
export function operations(doc: Doc): Map<string, Operation> {
  return new Map(
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const)),
  );
}

/**
 * The answers every operation gives whatever its table says, derived from what the document says
 * of it: no token, a token without the scope (or not an admin), an unknown query parameter, and for
 * a body a wrong media type and malformed JSON. They run on the path of the operation's first case.
 */
export async function genericCases(op: Operation, path: string): Promise<Case[]> {
  const cases: Case[] = [{ status: 400, path: `${path}${path.includes('?') ? '&' : '?'}contract_unknown=1` }];
  if (op.security.length) {
    cases.push({ status: 401, path, token: null });
    if (op.security[0]!.bearerAuth.length || op['x-admin-only']) cases.push({ status: 403, path, token: (await tokenWith([])).token });
  }
  if (op.requestBody) {
    cases.push({ status: 415, path, raw: '{}', headers: { 'content-type': 'text/plain' } });
    cases.push({ status: 400, path, raw: '{"unterminated', headers: { 'content-type': 'application/json' } });
  }
  return cases;
}

/** Validates live answers against the response schemas of the document, compiled once each. */
export class ContractValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(private readonly doc: Doc) {
    // The document's formats (int32, int64, uri) are checked too, not only noted.
    addFormats(this.ajv);
  }

  /** Problems with one answer: an undocumented status, a body the schema refuses, a body where none is documented. */
  check(op: Operation, status: number, text: string): string[] {
    const response = op.responses[String(status)];
    if (!response) return [`status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    const schema = response.content?.['application/json'].schema;
    if (!schema) return text ? [`a body where the document says none: ${text.slice(0, 200)}`] : [];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`not JSON: ${text.slice(0, 200)}`];
    }
    let validate = this.compiled.get(schema);
    if (!validate) {
      // The references point into the document's components, which travel with each schema.
      validate = this.ajv.compile({ ...(schema as object), components: this.doc.components });
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}: ${text.slice(0, 300)}`);
  }
}

export async function send(method: string, c: Case) {
  return call(c.path, {
    method,
    token: c.token,
    body: c.raw ?? c.body,
    headers: c.headers,
    // Denials count toward the throttle of their client address: each one comes from its own.
    clientIp: c.status === 401 ? freshIp() : undefined,
  });
}
