import { implementFront } from '../../handlers/implement';
import { reachability } from '../../handlers/system';
import { teamFrontRoutes } from '../contracts';
import type { Team } from '../contracts/teams';
import { createFront, type App } from '../pipeline/app';
import { arrivingRequest } from '../pipeline/arrival';
import { bearerToken, type Authenticator } from '../pipeline/authenticate';
import { LimiterThrottle, type SpendFailure } from '../pipeline/limiter-throttle';
import type { Config } from '../shared/config';
import { sha256Hex, timingSafeEqual } from '../shared/crypto';
import { ApiError } from '../shared/errors/api-error';
import { splitTeamPath } from '../shared/team-path';
import { teamOpenapiDocument } from './openapi';
import { TeamId } from './team-id';

/** The teams' Durable Objects, as the Worker reaches them (src/runtimes/cloudflare/team-worker.ts). */
export interface TeamDirectory {
  /** A request the front passed on (src/pipeline/arrival.ts), served by the team's object (as a team that knows no one when never created). */
  serve(teamId: TeamId, request: Request): Promise<Response>;
  /** Creates the team with its owner, or answers null when it exists; `requestId` is the owner's audit entry's. */
  create(teamId: TeamId, owner: string, requestId: string): Promise<Team | null>;
}

export interface TeamFrontParts {
  /** The same for every team (./team-config.ts). */
  config: Config;
  /** SHA-256 of the operator token; null when none is set, and then no team can be created. */
  operatorTokenSha256: string | null;
  directory: TeamDirectory;
  /** The shared budget of failed operator authentications, by client. */
  spendFailure: SpendFailure;
}

/** The operator: the holder of `LPA_OPERATOR_TOKEN`, which creates teams and opens no team's data. */
function operatorAuthenticator(operatorTokenSha256: string | null): Authenticator {
  return async (request) => {
    const token = bearerToken(request);
    if (token === null) throw new ApiError('auth.token_missing');
    if (operatorTokenSha256 === null || !timingSafeEqual(sha256Hex(token), operatorTokenSha256))
      throw new ApiError('auth.token_invalid');
    return { actor: { type: 'system', id: null, label: 'operator' }, scopes: [], admin: true };
  };
}

/** The team service's document describes every route it serves, its own included; built on its first request, once per isolate. */
let document: Record<string, unknown> | undefined;

/**
 * The team service's front (docs/teams.md): `GET /status`, the operator's `POST /v1/teams` and the
 * service's OpenAPI document (`GET /v1/openapi.json`), declared together in src/contracts' teamFrontRoutes, here,
 * and every team's API under `/teams/{team_id}/api/v1/…` handed to the team's own Durable Object,
 * which runs the same pipeline, routes and handlers as the local store's object over the team's
 * store (src/object/store-object.ts). Nothing of a team is kept here.
 */
export function teamFront(parts: TeamFrontParts): App {
  const { directory } = parts;
  const routes = implementFront(teamFrontRoutes, {
    reachability,
    create: async ({ body, ctx }) => {
      const team = await directory.create(body.team_id, body.owner, ctx.requestId);
      if (team === null) throw new ApiError('team.exists', { team_id: body.team_id });
      return team;
    },
    document: () => (document ??= teamOpenapiDocument()),
  });
  return createFront(routes, {
    config: parts.config,
    authenticate: operatorAuthenticator(parts.operatorTokenSha256),
    throttle: new LimiterThrottle((client) => parts.spendFailure(`operator:${client}`)),
    onward: async (request, sender, url) => {
      const path = splitTeamPath(url.pathname);
      if (!path) throw new ApiError('route.not_found', { method: request.method, path: url.pathname.slice(0, 200) });
      const teamId = TeamId.safeParse(path.teamId);
      // An id of no team's form: saying so tells nothing of any team (a well-formed one no operator created is its object's to answer).
      if (!teamId.success) throw new ApiError('team.not_found', { team_id: path.teamId.slice(0, 63) });
      // The team's pipeline sees the path its routes are declared with; the team is in which object it is.
      url.pathname = path.rest;
      return directory.serve(teamId.data, arrivingRequest(request, url.href, { ...sender, teamId: path.teamId }));
    },
  });
}
