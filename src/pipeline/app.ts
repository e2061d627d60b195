import { storeClient, type FailedRequest, type Invoke } from '../../storage/client';
import type { Config } from '../shared/config';
import { ApiError } from '../shared/errors/api-error';
import { toApiError } from '../shared/errors/envelope';
import type { HostPort } from '../host/port';
import { logAccess, parsedUrl, requestTarget } from './access-log';
import { LogBuffer } from './api-log-buffer';
import { ApiLogGate } from './api-log-gate';
import { auditContext, auditFailure, coalescedHere, requestSource, type DenialRecorder } from './audit-failure';
import { bearerToken, localAuthenticator, type Authenticator } from './authenticate';
import { authorize } from './authorize';
import { discardUnreadBody, readJsonBody } from './body';
import { normalizeAddress } from './client-address';
import { consoleResponse } from './console';
import { assertAllowedHost } from './host-guard';
import { checkOrigin, isPreflight, preflightHeaders } from './origin-guard';
import { redactTokens, type KnownSecrets } from './redact';
import { emptyResponse, errorResponse, jsonResponse, withoutBody } from './respond';
import { startupFacts } from './store-facts';
import { AuthThrottle, type Throttle } from './throttle';
import { decodeParams, EMPTY_QUERY, queryObject, validate } from './validate';
import { DEFAULT_BODY_LIMIT } from '../shared/body-limit';
import type { RequestContext } from '../../handlers/context';
import type { Route } from '../../handlers/implement';
import { createRouter } from './router';
import { forwardToTeam } from './forward';
import { adoptMachine } from './machine';

export interface AppDeps {
  config: Config;
  /** Where store calls go: the Durable Object's `invoke` over RPC, or the store in process. */
  store: Invoke;
  /** The store's key (its object's name): the token cache the pipeline may answer token checks from. */
  storeKey: string;
  host: HostPort;
  now?: () => number;
  /** Who sent a request; by default the local service's admin token and store tokens. */
  authenticate?: Authenticator;
  /** The throttle of failed authentications; by default the local one, in memory (./throttle.ts). */
  throttle?: Throttle;
  /** How denials reach the audit log; by default coalesced in this process (./audit-failure.ts). */
  recordDenial?: DenialRecorder;
  /** A team's service: a team token's request may name the machine it came through (./machine.ts). */
  acceptsMachines?: boolean;
}

/** What the runtime knows of the connection, and how it keeps work alive after the answer. */
export interface Connection {
  /** The peer address of the connection; never taken from a request header. */
  clientIp: string;
  /** Keeps a promise (a log write, say) running after the response is sent. */
  waitUntil: (promise: Promise<unknown>) => void;
}

export interface App {
  /**
   * `url`: where the request is served, when that is not `request.url` (a team's pipeline serves the
   * path its routes are declared with); it saves copying the request to rewrite its URL.
   */
  (request: Request, connection: Connection, url?: URL): Promise<Response>;
  /** Writes the `api` log lines still buffered; a clean stop calls it before the runtime exits. */
  flushLogs(): Promise<void>;
}

/**
 * The request pipeline, in the order the design fixes: request id, Host, Origin, throttle, bearer
 * token, scopes, body, validation, handler. Every failure becomes the error envelope; nothing of
 * the request (its URL included) is looked at before the Host guard has passed it.
 */
export function createApp(routes: readonly Route[], deps: AppDeps): App {
  const router = createRouter(routes);
  const throttle = deps.throttle ?? new AuthThrottle();
  const authenticate = deps.authenticate ?? localAuthenticator(deps.config);
  const recordDenial = deps.recordDenial ?? coalescedHere();
  const now = deps.now ?? Date.now;
  const apiLog = new LogBuffer((records) => deps.host.logs.append('api', records));
  const apiLogGate = new ApiLogGate();
  const store = storeClient(deps.store, { storeKey: deps.storeKey });
  const storeFacts = startupFacts(store);

  /** `seen.url` is the request's URL once the Host guard has passed it, parsed once for the answer and the log line. */
  async function answer(
    request: Request,
    ctx: RequestContext,
    seen: { url: URL | null },
    servedAt: URL | undefined,
  ): Promise<Response> {
    const { clientIp } = ctx;
    let origin: string | null = null;
    let route: Route | undefined;
    let path = '';
    try {
      assertAllowedHost(request, deps.config.allowedHosts);
      // A request target that is no path (`OPTIONS *`, `GET *`) makes no URL under workerd: no route has it.
      const url = (seen.url = servedAt ?? parsedUrl(request));
      if (url === null)
        throw new ApiError('route.not_found', { method: request.method, path: requestTarget(request.url) });
      path = url.pathname;
      origin = checkOrigin(request, deps.config.allowedOrigins);
      if (origin !== null && isPreflight(request)) return emptyResponse(204, ctx.requestId, preflightHeaders(origin));
      // The web console's files (src/console) need no token: they hold no data, the API calls they make do.
      const page = consoleResponse(request.method, url.pathname, ctx.requestId);
      if (page) return page;
      const match = router.match(request.method, url.pathname);
      route = match?.route;
      if (route?.access !== 'public') {
        throttle.assertNotBlocked(clientIp, now());
        ctx.principal = await authenticate(request, store).catch(async (error: unknown) => {
          // Only a presented token that fails is a guess; a request without one gains nothing to throttle.
          if (error instanceof ApiError && error.code === 'auth.token_invalid')
            await throttle.recordFailure(clientIp, now());
          throw error;
        });
        throttle.recordSuccess(clientIp, now());
        if (deps.acceptsMachines) adoptMachine(request, ctx);
      }
      if (!match || !route)
        throw new ApiError('route.not_found', { method: request.method, path: url.pathname.slice(0, 200) });
      authorize(route, ctx.principal);
      const params = route.params ? validate(route.params, decodeParams(match.params), 'path') : undefined;
      const query = validate(route.query ?? EMPTY_QUERY, queryObject(url), 'query');
      const raw = route.body ? await readJsonBody(request, route.bodyLimit ?? DEFAULT_BODY_LIMIT) : undefined;
      const body = route.body ? validate(route.body, raw, 'body') : undefined;
      // A machine in a team: the team's data is the team's (./forward.ts), once everything local has passed.
      if (deps.config.teamUrl !== null && route.home === 'team')
        return await forwardToTeam(request, url, route, raw, ctx, origin);
      const audit = route.audit ? auditContext(ctx, route.audit) : undefined;
      // An audited route's store calls carry their failure's audit entry: a failing change is audited in its own call.
      if (audit)
        ctx.store = storeClient(deps.store, {
          storeKey: deps.storeKey,
          failure: { audit, request: failedRequest(request, path, ctx) },
        });
      const result = await route.handler({ params, query: route.query ? query : undefined, body, ctx, audit });
      return jsonResponse(result, route.status ?? 200, ctx.requestId, origin);
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status === 500) console.error(`request ${ctx.requestId} failed:`, thrown);
      await auditFailure(store, ctx, route, error, failedRequest(request, path, ctx), recordDenial, now());
      return errorResponse(error, ctx.requestId, origin);
    }
  }

  const secretsOf = (request: Request): KnownSecrets => ({
    adminTokenSha256: deps.config.adminTokenSha256,
    adminTokenLength: deps.config.adminTokenLength,
    bearer: bearerToken(request),
  });
  const failedRequest = (request: Request, path: string, ctx: RequestContext): FailedRequest => ({
    method: request.method,
    path: redactTokens(path, secretsOf(request)),
    client_ip: ctx.clientIp,
  });

  const serve = async (request: Request, { clientIp, waitUntil }: Connection, servedAt?: URL): Promise<Response> => {
    const startedAt = now();
    const ctx: RequestContext = {
      requestId: crypto.randomUUID(),
      source: requestSource(request),
      clientIp: normalizeAddress(clientIp),
      principal: null,
      config: deps.config,
      store,
      storeFacts,
      host: deps.host,
      waitUntil,
    };
    const seen: { url: URL | null } = { url: null };
    const response = await answer(request, ctx, seen, servedAt);
    await discardUnreadBody(request);
    const trusted = ctx.principal !== null || throttle.isKnown(ctx.clientIp, now());
    logAccess(
      apiLog,
      apiLogGate,
      trusted,
      ctx,
      request,
      seen.url ?? parsedUrl(request),
      secretsOf(request),
      response,
      startedAt,
      now(),
    );
    // HEAD is answered wherever GET is (the router matches it as GET), with the same status and headers.
    return request.method === 'HEAD' ? withoutBody(response) : response;
  };
  return Object.assign(serve, { flushLogs: () => apiLog.flush() });
}
