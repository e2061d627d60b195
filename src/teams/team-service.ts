import type { ChainTip, Reply, StoreCall } from '../../storage/client';
import type { HostPort } from '../host/port';
import { parsedUrl } from '../pipeline/access-log';
import { createApp, type App, type Connection } from '../pipeline/app';
import { bearerToken } from '../pipeline/authenticate';
import { readJsonBody } from '../pipeline/body';
import { normalizeAddress } from '../pipeline/client-address';
import { assertAllowedHost } from '../pipeline/host-guard';
import { LimiterThrottle, type SpendFailure } from '../pipeline/limiter-throttle';
import { errorResponse, jsonResponse, withoutBody } from '../pipeline/respond';
import { validate } from '../pipeline/validate';
import { teams, TeamCreate, type Team } from '../contracts/teams';
import { DEFAULT_BODY_LIMIT } from '../shared/body-limit';
import type { Config } from '../shared/config';
import { sha256Hex, timingSafeEqual } from '../shared/crypto';
import { ApiError } from '../shared/errors/api-error';
import { toApiError } from '../shared/errors/envelope';
import { TEAM_HEAD_HEADER, teamHeadValue } from '../shared/schemas/team';
import { splitTeamPath } from '../shared/team-path';
import type { AccessVerifier } from './access-jwt';
import { teamAuthenticator } from './identity';
import { TEAM_ROUTES } from './routes';
import { TeamId, teamStoreKey } from './team-id';

/** The teams' Durable Objects, as the Worker reaches them (src/runtimes/cloudflare/team-worker.ts). */
export interface TeamDirectory {
  /** One store call to the team's object. */
  invoke(teamId: TeamId, call: StoreCall): Promise<Reply>;
  /** Whether the team was created. */
  exists(teamId: TeamId): Promise<boolean>;
  /** Creates the team with its owner, or answers null when it exists; `requestId` is the owner's audit entry's. */
  create(teamId: TeamId, owner: string, requestId: string): Promise<Team | null>;
}

export interface TeamServiceParts {
  /** The same for every team (./team-config.ts). */
  config: Config;
  /** SHA-256 of the operator token; null when none is set, and then no team can be created. */
  operatorTokenSha256: string | null;
  directory: TeamDirectory;
  /** Verifies a Cloudflare Access assertion; null where Access is not configured (team tokens only). */
  verifyAccess: AccessVerifier | null;
  /** The shared budget of failed authentications, by a key that names the team (or the operator route) and the client. */
  spendFailure: SpendFailure;
  /** The Worker's side of a team's host port: where its log lines go. */
  hostFor(teamId: TeamId): HostPort;
}

/** A team's pipeline, and the newest chain head its store calls have shown. */
interface TeamApp {
  serve: App;
  seen: { head: ChainTip | null };
}

/** Per-team pipelines kept in one isolate at once; the least recently used is dropped past this. */
const MAX_APPS = 256;

/**
 * The team service (docs/teams.md): `GET /status`, the operator's `POST /v1/teams`, and every team's
 * API under `/teams/{team_id}/api/v1/…`, served by the same route declarations, handlers and pipeline
 * as the local service, over the team's own Durable Object. Each team gets a pipeline of its own, so
 * that everything the pipeline keeps in memory (throttle, denial windows, api log buffer, the store's
 * facts) is keyed by the team; the token cache is keyed by the team's store (storage/tokens/shared-cache.ts).
 */
export function teamService(parts: TeamServiceParts): (request: Request, connection: Connection) => Promise<Response> {
  const { config, directory } = parts;
  const apps = new Map<TeamId, TeamApp>();
  /** Teams this isolate has seen exist: a team is never deleted, so one answer holds. */
  const known = new Set<TeamId>();
  const operatorThrottle = new LimiterThrottle((client) => parts.spendFailure(`operator:${client}`));

  const appFor = (teamId: TeamId): TeamApp => {
    let app = apps.get(teamId);
    if (app) {
      apps.delete(teamId);
    } else {
      const seen: TeamApp['seen'] = { head: null };
      const serve = createApp(TEAM_ROUTES, {
        config,
        store: async (call) => {
          const reply = await directory.invoke(teamId, call);
          if (reply.head && reply.head.seq >= (seen.head?.seq ?? 0)) seen.head = reply.head;
          return reply;
        },
        storeKey: teamStoreKey(teamId),
        host: parts.hostFor(teamId),
        authenticate: teamAuthenticator(parts.verifyAccess),
        throttle: new LimiterThrottle((client) => parts.spendFailure(`${teamId}:${client}`)),
        // Coalesced in the team's object, which every isolate of the service sends its denials to.
        recordDenial: (store, denial) => store.system.recordDenial(denial),
        acceptsMachines: true,
      });
      app = { serve, seen };
    }
    apps.set(teamId, app);
    if (apps.size > MAX_APPS) apps.delete(apps.keys().next().value!);
    return app;
  };

  const exists = async (teamId: TeamId): Promise<boolean> => {
    if (known.has(teamId)) return true;
    if (!(await directory.exists(teamId))) return false;
    known.add(teamId);
    return true;
  };

  async function createTeam(request: Request, clientIp: string, requestId: string): Promise<Response> {
    if (request.method !== teams.create.method)
      throw new ApiError('route.not_found', { method: request.method, path: teams.create.path });
    operatorThrottle.assertNotBlocked(clientIp, Date.now());
    const token = bearerToken(request);
    if (token === null) throw new ApiError('auth.token_missing');
    if (parts.operatorTokenSha256 === null || !timingSafeEqual(sha256Hex(token), parts.operatorTokenSha256)) {
      await operatorThrottle.recordFailure(clientIp, Date.now());
      throw new ApiError('auth.token_invalid');
    }
    const body = validate(TeamCreate, await readJsonBody(request, DEFAULT_BODY_LIMIT), 'body');
    const team = await directory.create(body.team_id, body.owner, requestId);
    if (team === null) throw new ApiError('team.exists', { team_id: body.team_id });
    known.add(team.team_id);
    return jsonResponse(team, 201, requestId, null);
  }

  async function answer(request: Request, connection: Connection, requestId: string): Promise<Response> {
    assertAllowedHost(request, config.allowedHosts);
    const url = parsedUrl(request);
    const path = url?.pathname ?? '';
    if (path === '/status' && (request.method === 'GET' || request.method === 'HEAD')) {
      return jsonResponse({ status: 'ok', version: config.appVersion }, 200, requestId, null);
    }
    if (path === teams.create.path) return createTeam(request, normalizeAddress(connection.clientIp), requestId);
    const match = splitTeamPath(path);
    if (!url || !match) throw new ApiError('route.not_found', { method: request.method, path: path.slice(0, 200) });
    const teamId = TeamId.safeParse(match.teamId);
    if (!teamId.success || !(await exists(teamId.data)))
      throw new ApiError('team.not_found', { team_id: match.teamId.slice(0, 63) });
    // The team's pipeline sees the path its routes are declared with; the team is in which pipeline it is.
    url.pathname = match.rest;
    const { serve, seen } = appFor(teamId.data);
    const response = await serve(request, connection, url);
    // The newest head of the team's chain this isolate has seen (at or after this request's own
    // entries): what a joined machine keeps as a witness of the team's history (docs/teams.md#audit-across-machines).
    if (seen.head) response.headers.set(TEAM_HEAD_HEADER, teamHeadValue(seen.head));
    return response;
  }

  return async (request, connection) => {
    const requestId = crypto.randomUUID();
    const response = await answer(request, connection, requestId).catch((thrown: unknown) => {
      const error = toApiError(thrown);
      if (error.status === 500) console.error(`request ${requestId} failed:`, thrown);
      return errorResponse(error, requestId, null);
    });
    return request.method === 'HEAD' ? withoutBody(response) : response;
  };
}
