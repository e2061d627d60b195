import type { z } from 'zod';
import type { AuditAction } from '../../storage/audit/actions';
import type { Actor, AuditContext } from '../../storage/audit/entry';
import type { StoreClient } from '../../storage/client';
import type { StoreFacts } from '../../storage/system/schema';
import type { Config } from '../shared/config';
import type { ErrorCode } from '../shared/errors/catalog';
import type { HostPort } from '../host/port';
import type { Scope } from '../shared/scopes';
import type { JsonBody } from '../shared/json-body';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: anyone, any valid token (then its scopes decide), or an admin session only. */
export type Access = 'public' | 'token' | 'admin';

export interface Principal {
  actor: Actor;
  scopes: readonly Scope[];
  admin: boolean;
}

export interface RequestContext {
  requestId: string;
  /** The audit source of the request: 'cli' or 'mcp' when LPA's own clients sent it, 'api' otherwise. */
  source: string;
  clientIp: string;
  principal: Principal | null;
  config: Config;
  /** The store; on an audited route, its calls carry their failure's audit entry (storage/client.ts). */
  store: StoreClient;
  /** The store's facts that change only at its start, known after the first ask (src/pipeline/store-facts.ts). */
  storeFacts: () => Promise<StoreFacts>;
  host: HostPort;
  waitUntil: (promise: Promise<unknown>) => void;
}

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface HandlerInput<P, Q, B, A> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  ctx: RequestContext;
  /** The audit context of this request, for routes that declare an audit action. */
  audit: A extends AuditAction ? AuditContext : undefined;
}

/**
 * Everything about one route, declared once. The router, the access and scope checks, body limits,
 * validation, failure auditing and the OpenAPI document are all derived from this.
 */
export interface RouteSpec<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
  A extends AuditAction | undefined = undefined,
> {
  method: Method;
  /** The path, `:name` for a path parameter (one segment); see src/routes/router.ts. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access?: Access;
  scopes?: readonly Scope[];
  params?: P;
  query?: Q;
  body?: B;
  /** Largest accepted body in bytes; the default is the spec's 1 MiB. */
  bodyLimit?: number;
  status?: 200 | 201 | 204;
  /** The success body; absent for 204. */
  response?: R;
  /** Declares a route that changes state or reads a secret: its success and failure are audited. */
  audit?: A;
  /** Error codes this route can answer beyond those its access, parameters and body imply. */
  errors?: readonly ErrorCode[];
  /** The answer's body; a JsonBody where its bytes are ready (a store read's text, a stream). */
  handler: (input: HandlerInput<P, Q, B, A>) => Promise<Out<R> | JsonBody<Out<R>>> | Out<R> | JsonBody<Out<R>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any, any, any>;

export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
  A extends AuditAction | undefined = undefined,
>(spec: RouteSpec<P, Q, B, R, A>): AnyRoute {
  return spec as AnyRoute;
}

export { DEFAULT_BODY_LIMIT } from '../shared/body-limit';
