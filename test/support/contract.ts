import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { contractCases } from './contract-cases';

/**
 * The contract test, independent of how requests reach the service: inside workerd through the
 * worker's own fetch handler (test/contract.test.ts) or over HTTP to another runtime
 * (test/node/contract-runtimes.test.ts).
 */

export interface Answer {
  status: number;
  text: string;
  json: any;
  headers: { get(name: string): string | null };
}

export interface Call {
  method?: string;
  /** The admin token unless given; null for none. */
  token?: string | null;
  /** JSON, or a string sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** From a client address of its own: denials count toward the throttle of their address. */
  fresh?: boolean;
}

export type Transport = (path: string, call?: Call) => Promise<Answer>;

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

/** How the service under test runs, where that changes what a case must answer. */
export interface SuiteMode {
  /**
   * A machine joined to a team (docs/teams.md#a-machine-in-a-team). Where each answer was made is
   * checked then: an operation whose document declares `X-LPA-Team-Head` is the team's, so each of
   * its successes carries the header (the team answered it) in the documented form, and no answer
   * of a local operation nor any generic refusal (no token, no scope, an unknown parameter, a wrong
   * media type, malformed JSON) does, since those never leave the machine. Solo, no answer does.
   */
  teamMode?: boolean;
}

/** The header of every answer the team gave (src/teams/team-service.ts), as the document names it. */
const TEAM_HEAD = 'X-LPA-Team-Head';

/** The team's head as the document declares it on an operation's success; undefined for a local operation. */
export const declaredTeamHead = (op: Operation) =>
  Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1].headers?.[TEAM_HEAD];

/** Where an answer was made, against where it should have been (see `SuiteMode.teamMode`). */
function placeProblems(op: Operation, generic: boolean, res: Answer, { teamMode = false }: SuiteMode): string[] {
  const declared = teamMode ? declaredTeamHead(op) : undefined;
  const head = res.headers.get(TEAM_HEAD);
  if (head === null)
    return declared && res.status < 300 ? [`a success without ${TEAM_HEAD}: not answered by the team`] : [];
  if (!declared || generic)
    return [`${TEAM_HEAD}: ${head}, an answer of a team, where the machine itself should have answered`];
  const { pattern } = declared.schema;
  return pattern !== undefined && new RegExp(pattern).test(head)
    ? []
    : [`${TEAM_HEAD} ${head} is not in the documented form ${pattern}`];
}

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
export interface Operation {
  security: { bearerAuth: string[] }[];
  requestBody?: unknown;
  'x-admin-only'?: boolean;
  responses: Record<
    string,
    {
      headers?: Record<string, { schema: { pattern?: string } }>;
      content?: { 'application/json': { schema: unknown } };
    }
  >;
}

export async function expectStatus(answer: Promise<Answer>, status: number): Promise<Answer> {
  const res = await answer;
  if (res.status !== status) throw new Error(`setup failed: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

export const tokenWith = async (t: Transport, scopes: string[]) =>
  (
    await expectStatus(
      t('/api/v1/tokens', { method: 'POST', body: { name: `contract-${crypto.randomUUID()}`, scopes } }),
      201,
    )
  ).json as { id: string; token: string };
export const createProfile = async (t: Transport, body: Record<string, unknown>) =>
  (await expectStatus(t('/api/v1/profiles', { method: 'POST', body }), 201)).json as { id: string };
export const createAccount = async (t: Transport, profileId: string, body: Record<string, unknown>) =>
  (await expectStatus(t(`/api/v1/profiles/${profileId}/accounts`, { method: 'POST', body }), 201)).json as {
    id: string;
  };
export const createFlow = async (t: Transport, body: Record<string, unknown>) =>
  (await expectStatus(t('/api/v1/automation/flows', { method: 'POST', body }), 201)).json.id as string;

/** Every operation of a document, keyed `METHOD /path` as the contract table is. */
export function operations(doc: Doc): Map<string, Operation> {
  return new Map(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
    ),
  );
}

/**
 * The answers every operation gives whatever its table says, derived from what the document says
 * of it: no token, a token without the scope (or not an admin), an unknown query parameter, and for
 * a body a wrong media type and malformed JSON. They run on the path of the operation's first case.
 */
async function genericCases(t: Transport, op: Operation, path: string): Promise<Case[]> {
  const cases: Case[] = [{ status: 400, path: `${path}${path.includes('?') ? '&' : '?'}contract_unknown=1` }];
  if (op.security.length) {
    cases.push({ status: 401, path, token: null });
    if (op.security[0]!.bearerAuth.length || op['x-admin-only'])
      cases.push({ status: 403, path, token: (await tokenWith(t, [])).token });
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
    // zod writes `format: "base64"` for z.base64(), a format ajv-formats does not know (it names it `byte`).
    this.ajv.addFormat('base64', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
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
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}: ${text.slice(0, 300)}`,
    );
  }
}

/**
 * The contract: every operation of the live document, called with valid setup data and with bad
 * input, answers what the document says for that status. An operation of the document that the
 * table does not know fails the test, so a new route cannot go unexercised.
 */
export function contractSuite(title: string, doc: Doc, t: Transport, mode: SuiteMode = {}): void {
  const documented = operations(doc);
  const validator = new ContractValidator(doc);
  const cases = contractCases(t, mode);

  describe(title, () => {
    // The runs' cases start real browsers: none outlives the suite (a team's machine starts none).
    afterAll(async () => {
      if (!mode.teamMode) await t('/api/v1/runs/stop-all', { method: 'POST', body: { force: true } });
    });

    it('has a way to call every documented operation, and documents every operation called', () => {
      expect([...documented.keys()].sort()).toEqual(Object.keys(cases).sort());
    });

    it('refuses an answer that the document does not describe', () => {
      const op = documented.get('GET /api/v1/version')!;
      expect(validator.check(op, 200, '{"unexpected":true}')).not.toEqual([]);
      expect(validator.check(op, 418, '{}')).toEqual([expect.stringContaining('status 418 is not documented')]);
      const wrongCode = JSON.stringify({ error: { code: 'files.exists', message: 'm', details: {} }, request_id: 'r' });
      expect(validator.check(op, 409, wrongCode)).not.toEqual([]);
    });

    it.each([...documented.keys()])('%s answers as documented', async (key) => {
      const op = documented.get(key)!;
      const method = key.split(' ')[0]!;
      const own = (await cases[key]?.()) ?? [];
      expect(own.length, `no cases for ${key}`).toBeGreaterThan(0);
      const problems: string[] = [];
      const generic = await genericCases(t, op, own[0]!.path);
      for (const c of [...generic, ...own]) {
        const res = await t(c.path, {
          method,
          token: c.token,
          body: c.raw ?? c.body,
          headers: c.headers,
          fresh: c.status === 401,
        });
        if (res.status !== c.status)
          problems.push(`${method} ${c.path}: expected ${c.status}, got ${res.status} ${res.text.slice(0, 300)}`);
        const found = validator.check(op, res.status, res.text);
        const type = res.headers.get('content-type');
        if (res.text && !type?.startsWith('application/json'))
          found.push(`a body served as ${type}, not application/json`);
        // One id names the request in the answer's header, its envelope and (in a team) both chains.
        if (res.status >= 400 && res.json?.request_id !== res.headers.get('x-request-id'))
          found.push(`request_id ${res.json?.request_id} is not the X-Request-Id ${res.headers.get('x-request-id')}`);
        found.push(...placeProblems(op, generic.includes(c), res, mode));
        problems.push(...found.map((p) => `${method} ${c.path} (${res.status}): ${p}`));
      }
      expect(problems).toEqual([]);
    });
  });
}
