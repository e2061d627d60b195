import type { Team } from '../../contracts/teams';
import type { DurableStoreObject, TeamStoreEnv } from '../../object/durable-store-object';
import { useSha256Hex } from '../../shared/crypto';
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
 * The team service's Worker (`wrangler deploy --env team`; `npm run start:team` runs it locally).
 * The client's address is CF-Connecting-IP, which Cloudflare's edge sets and no client can.
 */
export default {
  async fetch(request, env, ctx) {
    front ??= startFront(env);
    const clientIp = request.headers.get('cf-connecting-ip') ?? 'unknown';
    return front(request, { clientIp, waitUntil: (promise) => ctx.waitUntil(promise) });
  },
} satisfies ExportedHandler<TeamWorkerEnv>;
