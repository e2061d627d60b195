import { committedStoreFacts, type ServedStore } from './served-store';
import type { Config } from '../shared/config';
import { ApiError } from '../shared/errors/api-error';
import { toApiError } from '../shared/errors/envelope';
import type { HostPort } from '../host/port';
import { type Caller, logAccess, parsedUrl, requestTarget, takeCaller, tellCaller } from './access-log';
import { LogBuffer } from './api-log-buffer';
import { ApiLogGate } from './api-log-gate';
import { auditContext, auditFailure, requestSource } from './audit-failure';
import { bearerToken, type Authenticator } from './authenticate';
import { authorize } from './authorize';
import { discardUnreadBody, hasNoBody, readJsonBody } from './body';
import { normalizeAddress } from './client-address';
import { consoleResponse } from './console';
import { assertAllowedHost } from './host-guard';
import { checkOrigin, isPreflight, preflightHeaders } from './origin-guard';
import { redactTokens, type KnownSecrets } from './redact';
import { emptyResponse, errorResponse, jsonResponse, withoutBody } from './respond';
import { AuthThrottle, type Throttle } from './throttle';
import { decodeParams, EMPTY_QUERY, queryObject, validate } from './validate';
import { DEFAULT_BODY_LIMIT } from '../shared/body-limit';
import type { FrontContext, RequestContext } from '../../handlers/context';
import type { FrontRoute, Route } from '../../handlers/implement';
import type { FailedRequest } from '../../storage/client';
import { createRouter } from './router';
import { forwardToTeam } from './forward-to-team';
import { adoptMachine } from './machine';

/** What the runtime knows of the connection, and how it keeps work alive after the answer. */
export interface Connection {
  /** The peer address of the connection; never taken from a request header. */
  clientIp: string;
  /** Keeps a promise (a log write, say) running after the response is sent. */
  waitUntil: (promise: Promise<unknown>) => void;
}

/** Who sent a request an entry's front has passed its guards: its request id and the client's address. */
export interface Sender {
  requestId: string;
  clientIp: string;
}

/**
 * A request handed on, as the object that owns its state serves it (./arrival.ts): its sender, and
 * `url`, where the object serves it (a team's object sees the path its routes are declared with).
 */
export interface Arrival extends Sender {
  url: string;
}

/**
 * Where a front sends a request that none of its own routes serves: the object that owns its state,
 * by name; `url` is the request's, which the onward may change to where the object serves it.
 */
export type Onward = (request: Request, sender: Sender, url: URL) => Promise<Response>;

interface CommonDeps {
  config: Config;
  /**
   * Where its `api` log lines are written. Absent in a store's object, its front writes them (the
   * object tells it who asked: ./access-log.ts); absent in a front, its objects write their own (the
   * team service's).
   */
  logs?: HostPort['logs'];
  now?: () => number;
  /** Who sent a request; absent where every route is public. */
  authenticate?: Authenticator;
  /** The throttle of failed authentications; by default the local one, in memory (./throttle.ts). */
  throttle?: Throttle;
}

/** An entry's front: the guards, the store-less routes (`GET /status`), the console's files, and `onward` for the rest. */
export interface FrontDeps extends CommonDeps {
  onward: Onward;
  /**
   * A run's DevTools endpoint, `/devtools/<secret>/…` (WebSocket upgrades included), passed to the
   * host that owns the browser (src/host/node/browsers); absent where no browser runs (404).
   */
  devtools?: (request: Request) => Promise<Response>;
}

/** A store's object: every route of the store, run over it. */
export interface ObjectDeps extends CommonDeps {
  host: HostPort;
  store: ServedStore;
  /** A team's service: a team token's request may name the machine it came through (./machine.ts). */
  acceptsMachines?: boolean;
  /**
   * Sets what the store adds to its answers to a request it let in (authenticated, its route's scopes
   * held), never to a refused one (a team's chain head, src/object/store-object.ts).
   */
  answered?: (response: Response) => void;
}

export interface App {
  /** A request as it arrives at an entry: the guards first, then a route of this app or `onward`. */
  (request: Request, connection: Connection): Promise<Response>;
  /** A request a front has passed on (a store's object). */
  arrived(request: Request, arrival: Arrival, waitUntil: Connection['waitUntil']): Promise<Response>;
  /** Writes the `api` log lines still buffered; a clean stop calls it before the runtime exits. */
  flushLogs(): Promise<void>;
}

/**
 * `url`: the request's URL once the Host guard has passed it; `handedOn`: the answer is the object's;
 * `admitted`: the request authenticated and its route's scopes let it in (what a store adds of its
 * own goes to such a request only).
 */
interface Seen {
  url: URL | null;
  handedOn: boolean;
  admitted: boolean;
}

export function createFront(routes: readonly FrontRoute[], deps: FrontDeps): App {
  return pipeline(routes, deps, null);
}

export function createApp(routes: readonly Route[], deps: ObjectDeps): App {
  return pipeline(routes, deps, deps);
}

/**
 * An app that serves nothing: every request meets the Origin guard, the throttle and `authenticate`
 * as a store's routes would, and is refused by the first that stops it (`route.not_found` past
 * them). A team no operator created answers so, as a team that knows none of its callers
 * (src/object/store-object.ts).
 */
export function createRefusals(deps: CommonDeps): App {
  return pipeline([], deps, null);
}

/** A route of either kind: its handler is called with the context its kind asks for (`contextOf`). */
type AnyRoute = Route<never>;

/**
 * The request pipeline, in the order the design fixes: request id, Host, Origin, (the front hands
 * on here) throttle, bearer token, scopes, body, validation, handler, audit of a failure, answer.
 * Every failure becomes the error envelope; nothing of the request (its URL included) is looked at
 * before the Host guard has passed it. A front (`objectDeps` null) runs the first steps and its own
 * store-less routes; a store's object runs the rest, over its store.
 */
function pipeline(routes: readonly AnyRoute[], deps: CommonDeps, objectDeps: ObjectDeps | null): App {
  const router = createRouter(routes);
  const throttle = deps.throttle ?? new AuthThrottle();
  const now = deps.now ?? Date.now;
  const { logs } = deps;
  const apiLog = logs && new LogBuffer((records) => logs.append('api', records));
  const apiLogGate = new ApiLogGate();
  const storeFacts = objectDeps && committedStoreFacts(objectDeps.store.client);
  const onward = objectDeps ? null : ((deps as Partial<FrontDeps>).onward ?? null);

  const secretsOf = (request: Request): KnownSecrets => ({
    adminTokenSha256: deps.config.adminTokenSha256,
    adminTokenLength: deps.config.adminTokenLength,
    adminTokenFingerprint: deps.config.adminTokenFingerprint,
    bearer: bearerToken(request),
  });
  const failedRequest = (request: Request, path: string, ctx: FrontContext): FailedRequest => ({
    method: request.method,
    path: redactTokens(path, secretsOf(request)),
    client_ip: ctx.clientIp,
  });

  /** The context of one request; a store's object adds its store. */
  const contextOf = (request: Request, requestId: string, clientIp: string, waitUntil: Connection['waitUntil']) => {
    const front: FrontContext = {
      requestId,
      source: requestSource(request),
      clientIp: normalizeAddress(clientIp),
      principal: null,
      config: deps.config,
      waitUntil,
    };
    if (!objectDeps) return front;
    const { client, memory } = objectDeps.store;
    return { ...front, host: objectDeps.host, store: client, storeFacts: storeFacts!, memory } satisfies RequestContext;
  };

  /** A request this app does not serve, handed to the object that owns its state (a front's `onward`). */
  async function handOn(request: Request, ctx: FrontContext, url: URL, seen: Seen, onward: Onward): Promise<Response> {
    const response = await onward(request, { requestId: ctx.requestId, clientIp: ctx.clientIp }, url);
    seen.handedOn = true;
    return response;
  }

  /**
   * From the router on: a route of this app, or (a front) the object that serves the rest. `allowed`
   * is the origin the front allowed; in a store's object (undefined) the Origin guard runs here, so
   * that its refusal is a denial the store records.
   */
  async function route(
    request: Request,
    ctx: FrontContext,
    url: URL,
    seen: Seen,
    allowed?: string | null,
  ): Promise<Response> {
    let route: AnyRoute | undefined;
    let origin = allowed ?? null;
    try {
      if (allowed === undefined) origin = checkOrigin(request, deps.config.allowedOrigins);
      const match = router.match(request.method, url.pathname);
      route = match?.route;
      if (!match && onward) return await handOn(request, ctx, url, seen, onward);
      if (route?.access !== 'public') {
        throttle.assertNotBlocked(ctx.clientIp, now());
        if (!deps.authenticate) throw new ApiError('auth.token_missing');
        ctx.principal = await deps.authenticate(request).catch(async (error: unknown) => {
          // Only a presented token that fails is a guess; a request without one gains nothing to throttle.
          if (error instanceof ApiError && error.code === 'auth.token_invalid')
            await throttle.recordFailure(ctx.clientIp, now());
          throw error;
        });
        throttle.recordSuccess(ctx.clientIp, now());
        if (objectDeps?.acceptsMachines) adoptMachine(request, ctx);
      }
      if (!match || !route)
        throw new ApiError('route.not_found', { method: request.method, path: url.pathname.slice(0, 200) });
      authorize(route, ctx.principal);
      seen.admitted = ctx.principal !== null;
      const params = route.params ? validate(route.params, decodeParams(match.params), 'path') : undefined;
      const query = validate(route.query ?? EMPTY_QUERY, queryObject(url), 'query');
      const raw = !route.body
        ? undefined
        : route.bodyOptional && hasNoBody(request)
          ? {}
          : await readJsonBody(request, route.bodyLimit ?? DEFAULT_BODY_LIMIT);
      const body = route.body ? validate(route.body, raw, 'body') : undefined;
      // A machine in a team: the team's data is the team's (./forward-to-team.ts), once everything local has passed.
      if (objectDeps && deps.config.teamUrl !== null && route.home === 'team')
        return await forwardToTeam(request, url, route, raw, ctx as RequestContext, origin);
      const audit = route.audit ? auditContext(ctx, route.audit) : undefined;
      // `ctx` is what this app's routes were declared for: a front's a FrontContext, an object's a RequestContext.
      const input = { params, query: route.query ? query : undefined, body, ctx: ctx as never, audit };
      const result = await route.handler(input);
      return jsonResponse(result, route.status ?? 200, ctx.requestId, origin);
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status === 500) console.error(`request ${ctx.requestId} failed:`, thrown);
      if (objectDeps)
        await auditFailure(objectDeps.store.client, ctx, route, error, failedRequest(request, url.pathname, ctx));
      return errorResponse(error, ctx.requestId, origin);
    }
  }

  /** The front's steps: Host, Origin, a preflight, the console's files; then the route. */
  async function atEntry(request: Request, ctx: FrontContext, seen: Seen): Promise<Response> {
    let origin: string | null = null;
    try {
      const url = (seen.url = parsedUrl(request));
      assertAllowedHost(request, url, deps.config.allowedHosts);
      // A request target that is no path (`OPTIONS *`, `GET *`) makes no URL under workerd: no route has it.
      if (url === null)
        throw new ApiError('route.not_found', { method: request.method, path: requestTarget(request.url) });
      try {
        origin = checkOrigin(request, deps.config.allowedOrigins);
      } catch (refused) {
        // A web page of a foreign origin: a denial, which only a store can record; its object refuses it the same way.
        if (onward) return await handOn(request, ctx, url, seen, onward);
        throw refused;
      }
      if (origin !== null && isPreflight(request)) return emptyResponse(204, ctx.requestId, preflightHeaders(origin));
      // The Host and Origin guards have passed: a web page can neither reach an endpoint nor learn one.
      const devtools = objectDeps ? undefined : (deps as FrontDeps).devtools;
      if (devtools && url.pathname.startsWith('/devtools/')) return await devtools(request);
      // The web console's files (src/console) need no token: they hold no data, the API calls they make do.
      const page = consoleResponse(request.method, url.pathname, ctx.requestId);
      if (page) return page;
      return await route(request, ctx, url, seen, origin);
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status === 500) console.error(`request ${ctx.requestId} failed:`, thrown);
      return errorResponse(error, ctx.requestId, origin);
    }
  }

  const callerOf = (ctx: FrontContext): Caller => ({
    actor: ctx.principal?.actor.type ?? 'anonymous',
    actor_id: ctx.principal?.actor.id ?? null,
    trusted: ctx.principal !== null || throttle.isKnown(ctx.clientIp, now()),
  });

  /**
   * The answer, its body's unread rest discarded, its `api` log line (or, in an object that keeps no
   * log, who asked, for its front to write it); HEAD is answered wherever GET is, without the body.
   */
  async function finish(request: Request, ctx: FrontContext, url: URL | null, response: Response, startedAt: number) {
    await discardUnreadBody(request);
    const caller = callerOf(ctx);
    if (apiLog)
      logAccess(apiLog, apiLogGate, caller, ctx, request, url, secretsOf(request), response.status, startedAt, now());
    else if (objectDeps) tellCaller(response, caller);
    return request.method === 'HEAD' ? withoutBody(response) : response;
  }

  /** A handed-on answer at the front: its `api` line, when its object told who asked. */
  function handedOnAnswer(request: Request, ctx: FrontContext, url: URL | null, handedOn: Response, startedAt: number) {
    const { caller, response } = takeCaller(handedOn);
    if (caller === null || !apiLog) return response;
    // An address the object knows as the user's keeps its lines of the front's own routes (GET /status) too.
    if (caller.trusted) throttle.recordSuccess(ctx.clientIp, now());
    logAccess(apiLog, apiLogGate, caller, ctx, request, url, secretsOf(request), response.status, startedAt, now());
    return response;
  }

  const serve = async (request: Request, { clientIp, waitUntil }: Connection): Promise<Response> => {
    const startedAt = now();
    const ctx = contextOf(request, crypto.randomUUID(), clientIp, waitUntil);
    const seen: Seen = { url: null, handedOn: false, admitted: false };
    const response = await atEntry(request, ctx, seen);
    if (seen.handedOn) return handedOnAnswer(request, ctx, seen.url, response, startedAt);
    return finish(request, ctx, seen.url ?? parsedUrl(request), response, startedAt);
  };

  const arrived = async (request: Request, arrival: Arrival, waitUntil: Connection['waitUntil']) => {
    const startedAt = now();
    const ctx = contextOf(request, arrival.requestId, arrival.clientIp, waitUntil);
    const url = new URL(arrival.url);
    const seen: Seen = { url, handedOn: false, admitted: false };
    const response = await route(request, ctx, url, seen);
    // What a store adds of its own is for those it lets in: nothing of it on a refusal.
    if (seen.admitted) objectDeps?.answered?.(response);
    return finish(request, ctx, url, response, startedAt);
  };

  return Object.assign(serve, { arrived, flushLogs: async () => apiLog?.flush() });
}
