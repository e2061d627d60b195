import type { Team } from '../../contracts/teams';
import { useSha256Hex } from '../../shared/crypto';
import { wasmSha256Hex } from '../../shared/sha256-wasm';
import { accessVerifier } from '../../teams/access-jwt';
import { accessSettings, operatorTokenSha256, teamConfigFrom, type TeamVars } from '../../teams/team-config';
import { NO_KEYS, teamHost } from '../../teams/team-host';
import { teamStoreKey, type TeamId } from '../../teams/team-id';
import { teamService } from '../../teams/team-service';
import sha256Wasm from '../workerd/sha256.wasm';
import type { TeamObject, TeamObjectEnv } from './team-object';

export { TeamObject } from './team-object';

// As in the local worker (src/runtimes/workerd/worker.ts): SHA-256 of the audit chain from WebAssembly.
useSha256Hex(wasmSha256Hex(sha256Wasm), 'hash-wasm');

/** The bindings of `[env.team]` in wrangler.toml: the teams' objects, the bucket, the rate limiter, the settings and secrets. */
export interface TeamWorkerEnv extends TeamVars, TeamObjectEnv {
  TEAMS: DurableObjectNamespace<TeamObject>;
  AUTH_LIMIT: RateLimit;
}

const teamObject = (env: TeamWorkerEnv, teamId: TeamId) => env.TEAMS.getByName(teamStoreKey(teamId));

let service: ReturnType<typeof teamService> | undefined;

function startService(env: TeamWorkerEnv): ReturnType<typeof teamService> {
  const access = accessSettings(env);
  return teamService({
    config: teamConfigFrom(env),
    operatorTokenSha256: operatorTokenSha256(env),
    directory: {
      invoke: (teamId, call) => teamObject(env, teamId).invoke(call),
      exists: (teamId) => teamObject(env, teamId).exists(),
      create: (teamId, owner, requestId) =>
        teamObject(env, teamId).create(teamId, owner, requestId) as Promise<Team | null>,
    },
    verifyAccess: access ? accessVerifier(access) : null,
    spendFailure: async (key) => (await env.AUTH_LIMIT.limit({ key })).success,
    hostFor: (teamId) => teamHost({ teamId, bucket: env.TEAM_FILES, keys: NO_KEYS }),
  });
}

/**
 * The team service's Worker (`wrangler deploy --env team`; `npm run start:team` runs it locally).
 * The client's address is CF-Connecting-IP, which Cloudflare's edge sets and no client can.
 */
export default {
  async fetch(request, env, ctx) {
    service ??= startService(env);
    const clientIp = request.headers.get('cf-connecting-ip') ?? 'unknown';
    return service(request, { clientIp, waitUntil: (promise) => ctx.waitUntil(promise) });
  },
} satisfies ExportedHandler<TeamWorkerEnv>;
