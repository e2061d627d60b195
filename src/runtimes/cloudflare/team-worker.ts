import type { Team } from '../../contracts/teams';
import type { DurableStoreObject, TeamStoreEnv } from '../../object/durable-store-object';
import { timingSafeEqual, useSha256Hex } from '../../shared/crypto';
import { TEAM_FRONT_KEY_HEADER } from '../../shared/team-front-key';
import { wasmSha256Hex } from '../../shared/sha256-wasm';
import { operatorTokenSha256, teamConfigFrom } from '../../teams/team-config';
import { teamFront } from '../../teams/team-front';
import { teamStoreKey, type TeamId } from '../../teams/team-id';
import type { App } from '../../pipeline/app';
import sha256Wasm from '../workerd/sha256.wasm';

// The one store object class, bound here under the name the teams' objects were created with
// (wrangler.toml's `TEAMS`): Cloudflare keeps an object's storage by its class's name.
export { DurableStoreObject as TeamObject } from '../../object/durable-store-object';

// As in the local worker (src/runtimes/workerd/worker.ts): SHA-256 of the audit chain from WebAssembly.
useSha256Hex(wasmSha256Hex(sha256Wasm), 'hash-wasm');

/** The bindings of `[env.team]` in wrangler.toml: the teams' objects, the bucket, the rate limiter, the settings and secrets. */
export interface TeamWorkerEnv extends TeamStoreEnv {
  TEAMS: DurableObjectNamespace<DurableStoreObject>;
  /**
   * Set by `npm run start:team` over several processes only, made anew at every start: the key its
   * front sends with each request (src/shared/team-front-key.ts). Never on Cloudflare.
   */
  TEAM_FRONT_KEY?: string;
}

const teamObject = (env: TeamWorkerEnv, teamId: TeamId) => env.TEAMS.getByName(teamStoreKey(teamId));

let front: App | undefined;

function startFront(env: TeamWorkerEnv): App {
  return teamFront({
    config: teamConfigFrom(env),
    operatorTokenSha256: operatorTokenSha256(env),
    directory: {
      serve: (teamId, request) => teamObject(env, teamId).fetch(request),
      create: (teamId, owner, requestId) =>
        teamObject(env, teamId).create(teamId, owner, requestId) as Promise<Team | null>,
    },
    spendFailure: async (key) => (await env.AUTH_LIMIT.limit({ key })).success,
  });
}

/**
 * The client's address: CF-Connecting-IP, which Cloudflare's edge sets and no client can. Locally,
 * the front of several processes stands in for the edge; a request without its key came to a
 * process's own port around it, where a client can name any address, so all such requests are one
 * client, `unknown`, for the throttle and the logs.
 */
function clientAddress(request: Request, env: TeamWorkerEnv): string {
  const throughEdge =
    env.TEAM_FRONT_KEY === undefined ||
    timingSafeEqual(request.headers.get(TEAM_FRONT_KEY_HEADER) ?? '', env.TEAM_FRONT_KEY);
  return (throughEdge && request.headers.get('cf-connecting-ip')) || 'unknown';
}

/** The team service's Worker (`wrangler deploy --env team`; `npm run start:team` runs it locally). */
export default {
  async fetch(request, env, ctx) {
    front ??= startFront(env);
    return front(request, { clientIp: clientAddress(request, env), waitUntil: (promise) => ctx.waitUntil(promise) });
  },
} satisfies ExportedHandler<TeamWorkerEnv>;
