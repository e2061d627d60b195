import type { z } from 'zod';
import type { AuditAction } from '../../storage/audit/actions';
import type { ErrorCode } from '../shared/errors/catalog';
import type { Scope } from '../shared/scopes';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: anyone, any valid token (then its scopes decide), or an admin session only. */
export type Access = 'public' | 'token' | 'admin';

/**
 * Who serves a route once a machine works in a team (docs/teams.md#which-data-lives-where). Solo, it
 * changes nothing: the machine serves every route.
 *
 * - `team` (profiles and their accounts, globals, flows, shares, the audit log and its settings, the
 *   version): every team serves the route at `/teams/{team_id}` followed by its path, over the team's
 *   store (src/teams/routes.ts). A machine joined to a team does not serve it: once its own guards,
 *   the local token's scopes and the validation of the path, query and body have passed, it sends the
 *   whole request to its team and answers with the team's answer, or with `503 team.unreachable` or
 *   `502 team.bad_answer` (src/pipeline/app.ts, src/pipeline/forward-to-team.ts); an audited route is also
 *   recorded in the machine's own chain, with the team's answer. So the route's OpenAPI entry lists
 *   those two errors and the `X-LPA-Team-Head` header.
 * - `local` (technical logs and their settings, automation files, the synchronizer, the machine's
 *   status, the account membership, the local tokens, `/api/v1/team…`: what the machine knows of its
 *   team, the OpenAPI document): the machine serves it itself, joined or not, over its own store and
 *   files. A team answers it `404 route.not_found`, except the token routes, which a team serves for
 *   its own tokens (src/teams/routes.ts adds them).
 *
 * The team service's own routes (the operator's `teams.create`, a team's members, the import of
 * `lpa team push`) say `team`: no machine serves them, so none forwards them.
 */
export type Home = 'team' | 'local';

export type Schema = z.ZodType;

/**
 * What a route is, declared once: everything but its handler. The server (router, access and scope
 * checks, body limits, validation, failure auditing), the OpenAPI document, the MCP tools and the
 * CLI's calls are all derived from it; the type parameters keep its schemas' types for the handler
 * (handlers/implement.ts) and for the CLI's typed calls (src/cli/client.ts), and its method and path
 * as literal types for the web console's typed calls (src/console/api.ts).
 */
export interface Contract<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema | undefined = Schema | undefined,
  A extends AuditAction | undefined = AuditAction | undefined,
  M extends Method = Method,
  Path extends string = string,
> {
  method: M;
  /** The path, `:name` for a path parameter (one segment); see src/pipeline/router.ts. */
  path: Path;
  home: Home;
  summary: string;
  description?: string;
  tag: string;
  access?: Access;
  scopes?: readonly Scope[];
  params?: P;
  query?: Q;
  body?: B;
  /** A request without a body (no bytes at all) is taken as `{}`: every field of `body` is optional. */
  bodyOptional?: boolean;
  /** Largest accepted body in bytes; the default is the spec's 1 MiB. */
  bodyLimit?: number;
  status?: 200 | 201 | 202 | 204;
  /** The success body; absent for 204. */
  response?: R;
  /** Declares a route that changes state or reads a secret: its success and failure are audited. */
  audit?: A;
  /** Error codes this route can answer beyond those its access, parameters and body imply. */
  errors?: readonly ErrorCode[];
}

/** A family's contracts by name, e.g. `globals.write`. */
export type Family = Record<string, Contract>;

export function defineContract<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
  A extends AuditAction | undefined = undefined,
  M extends Method = Method,
  Path extends string = string,
>(contract: Contract<P, Q, B, R, A, M, Path>): Contract<P, Q, B, R, A, M, Path> {
  return contract;
}

/** The value a schema parses into; `undefined` where the contract declares none. */
export type Out<S> = S extends Schema ? z.output<S> : undefined;

/*
 * The types of a client's call of a contract, shared by the CLI (src/cli/client.ts) and the web
 * console (src/console/api.ts), each of which says how its values travel.
 */

/** What a schema takes before it parses; `undefined` where the contract declares none. */
export type In<S> = S extends Schema ? z.input<S> : undefined;

/** One part of a call's input: required when its schema requires something, absent when the contract declares none. */
export type CallPart<K extends string, S, T> = S extends Schema
  ? {} extends T
    ? { [k in K]?: T }
    : { [k in K]: T }
  : { [k in K]?: never };

/** A call's input as its arguments: optional where every part of it is. */
export type OptionalWhenEmpty<T> = {} extends T ? [input?: T] : [input: T];

/** The answer of contract C, as its response schema types it (undefined for 204). */
export type AnswerOf<C> = C extends Contract<infer _P, infer _Q, infer _B, infer R> ? Out<R> : never;

/** Whether calling the route may change anything (MCP's hints, the secret-scope probe). */
export const isReadOnly = (contract: Contract): boolean => contract.method === 'GET';
export const isRemoval = (contract: Contract): boolean => contract.method === 'DELETE';
