import type { AuditAction } from '../storage/audit/actions';
import type { AuditContext } from '../storage/audit/entry';
import type { Contract, Family, Out, Schema } from '../src/contracts/define';
import type { JsonBody } from '../src/shared/json-body';
import type { FrontContext, RequestContext } from './context';

/** A handler's input: its contract's params, query and body as they parsed, and the request. */
export interface HandlerInput<P, Q, B, A, X extends FrontContext = RequestContext> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  ctx: X;
  /** The audit context of this request, for routes that declare an audit action. */
  audit: A extends AuditAction ? AuditContext : undefined;
}

/** The answer's body, as the response schema types it; a JsonBody where it is streamed. */
type Answer<R> = Out<R> | JsonBody<Out<R>>;

/** The handler a contract asks for: its input typed from the contract's schemas, its answer checked against its response schema. */
export type Handler<C, X extends FrontContext = RequestContext> =
  C extends Contract<
    infer P extends Schema | undefined,
    infer Q extends Schema | undefined,
    infer B extends Schema | undefined,
    infer R extends Schema | undefined,
    infer A extends AuditAction | undefined
  >
    ? (input: HandlerInput<P, Q, B, A, X>) => Answer<R> | Promise<Answer<R>>
    : never;

/** A route as the server runs it: its contract and its handler, which the pipeline calls with validated input only. */
export interface Route<C extends FrontContext = RequestContext> extends Contract {
  handler: (input: {
    params: unknown;
    query: unknown;
    body: unknown;
    ctx: C;
    audit: AuditContext | undefined;
  }) => unknown;
}

/** A route that needs no store: an entry's front serves it (`GET /status`, the team service's `POST /v1/teams`). */
export type FrontRoute = Route<FrontContext>;

/**
 * A family's routes: one handler for each of its contracts (a missing or an extra one does not
 * compile), each typed from its own contract.
 */
export function implement<F extends Family>(family: F, handlers: NoInfer<{ [K in keyof F]: Handler<F[K]> }>): Route[] {
  return routesOf(family, handlers);
}

/** The routes of contracts whose handlers need no store: what an entry's front serves. */
export function implementFront<F extends Family>(
  family: F,
  handlers: NoInfer<{ [K in keyof F]: Handler<F[K], FrontContext> }>,
): FrontRoute[] {
  return routesOf(family, handlers);
}

function routesOf<C extends FrontContext>(family: Family, handlers: Record<string, unknown>): Route<C>[] {
  return Object.entries(family).map(([name, contract]) => ({
    ...contract,
    // The pipeline validates params, query and body against this contract before it calls the
    // handler (src/pipeline/app.ts), so the input has the types the handler was checked against.
    handler: handlers[name] as Route<C>['handler'],
  }));
}
