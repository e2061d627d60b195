import { DurableObject } from 'cloudflare:workers';
import type { JobReport } from '../../storage/jobs/daily-job';
import { durableSql } from '../../storage/sql/durable-sql';
import type { StoreStartOptions } from '../../storage/startup';
import type { Team } from '../contracts/teams';
import { hostClient, type HostFetcher } from '../host/port';
import type { App } from '../pipeline/app';
import { configFrom, type ConfigVars } from '../shared/config';
import { accessVerifier } from '../teams/access-jwt';
import { parseWrapKey } from '../teams/key-wrap';
import { accessSettings, teamConfigFrom, type TeamVars } from '../teams/team-config';
import { teamHost } from '../teams/team-host';
import type { TeamId } from '../teams/team-id';
import { wrappedKeys } from '../teams/team-keys';
import { arrivalOf } from '../pipeline/arrival';
import { StoreObject, uncreatedTeam, type TeamParts } from './store-object';

/** The local store's bindings (the workerd config of `npm start`; wrangler.toml's `local` in the tests): its settings and the host port. */
export interface LocalStoreEnv extends ConfigVars {
  HOST: HostFetcher;
}

/** A team's bindings (wrangler.toml's `team`): the settings, the bucket of the seal records, the key-encryption key, the rate limiter. */
export interface TeamStoreEnv extends TeamVars {
  TEAM_FILES: R2Bucket;
  AUTH_LIMIT: RateLimit;
}

export type StoreObjectEnv = LocalStoreEnv | TeamStoreEnv;

const isTeamEnv = (env: StoreObjectEnv): env is TeamStoreEnv => 'TEAM_FILES' in env;

/**
 * Work an answer leaves running (an api log write): a Durable Object runs it to its end without
 * `waitUntil`, which in an object only costs (a third of the throughput of a short request under
 * workerd, docs/benchmarks.md#the-object-hop); its failure is reported, never thrown.
 */
const keepRunning = (work: Promise<unknown>) =>
  void work.catch((error: unknown) => console.error('background work failed:', error));

/** How a team's members sign in, and its budget of failed authentications, as its bindings say. */
function teamParts(env: TeamStoreEnv, teamId: string): TeamParts {
  const access = accessSettings(env);
  return {
    teamId,
    verifyAccess: access ? accessVerifier(access) : null,
    spendFailure: async (key) => (await env.AUTH_LIMIT.limit({ key })).success,
  };
}

/** The object's own record of its team, in its key-value storage beside the store's tables. */
const TEAM_RECORD = 'team';

/** A Durable Object's alarm as the store's wake-up. Alarms survive restarts: at start one is set only if none is pending, so a restart never skips a run. */
function alarmWakeUp(storage: DurableObjectStorage): StoreStartOptions['wakeAt'] {
  return async (at, { atStart }) => {
    if (!atStart || (await storage.getAlarm()) === null) await storage.setAlarm(at);
  };
}

/**
 * The store's Durable Object, under workerd (`npm start`) and on Cloudflare (one per team): a
 * SQLite-backed object that holds a StoreObject (./store-object.ts) and serves the requests the
 * entry's front hands it by its `fetch` (src/pipeline/arrival.ts). Which store it is comes from its
 * bindings: the local one starts at once; a team's is made by the operator's `create` (until then
 * it answers every request as a team that knows no one would), its keys made inside it and kept wrapped
 * (src/teams/team-keys.ts), its seal record in the bucket under the team's prefix. The daily run is
 * its alarm.
 */
export class DurableStoreObject extends DurableObject<StoreObjectEnv> {
  /** The store it holds; undefined for a team not created yet. */
  object: StoreObject | undefined;
  /** How it answers while its team is not created (./store-object.ts `uncreatedTeam`); made at its first request. */
  #uncreated: App | undefined;

  constructor(ctx: DurableObjectState, env: StoreObjectEnv) {
    super(ctx, env);
    if (!isTeamEnv(env)) {
      void ctx.blockConcurrencyWhile(async () => {
        this.object = await StoreObject.start({
          db: durableSql(ctx.storage),
          host: hostClient(env.HOST),
          config: configFrom(env),
          wakeAt: alarmWakeUp(ctx.storage),
        });
      });
      return;
    }
    const team = ctx.storage.kv.get<Team>(TEAM_RECORD);
    if (team) void ctx.blockConcurrencyWhile(() => this.#startTeam(env, team.team_id as TeamId));
  }

  async #startTeam(env: TeamStoreEnv, teamId: TeamId): Promise<StoreObject> {
    const keys = wrappedKeys(this.ctx.storage.kv, parseWrapKey(env.LPA_KEY_WRAP_KEY), teamId);
    this.object = await StoreObject.start({
      db: durableSql(this.ctx.storage),
      host: teamHost({ teamId, bucket: env.TEAM_FILES, keys }),
      config: teamConfigFrom(env),
      wakeAt: alarmWakeUp(this.ctx.storage),
      team: teamParts(env, teamId),
    });
    return this.object;
  }

  /** One request the entry's front passed on (src/pipeline/arrival.ts); a team not created answers as one that knows no one. */
  override async fetch(request: Request): Promise<Response> {
    const arrival = arrivalOf(request);
    if (this.object) return this.object.serve(request, arrival, keepRunning);
    // Only a team's object is ever without its store (the local one starts in its constructor).
    const env = this.env as TeamStoreEnv;
    this.#uncreated ??= uncreatedTeam(teamConfigFrom(env), teamParts(env, arrival.teamId ?? ''));
    return this.#uncreated.arrived(request, arrival, keepRunning);
  }

  /**
   * Creates the team: its store (with its keys, made here), its owner as its first member (audited in
   * the team's chain, the operator as actor), then the record that says the team exists. A creation
   * cut short is finished by the next one: a store that has its keys keeps them.
   */
  create(teamId: TeamId, owner: string, requestId: string): Promise<Team | null> {
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.ctx.storage.kv.get(TEAM_RECORD) !== undefined || !isTeamEnv(this.env)) return null;
      const object = this.object ?? (await this.#startTeam(this.env, teamId));
      const audit = {
        actor: { type: 'system' as const, id: null, label: 'operator' },
        source: 'api',
        request_id: requestId,
        action: 'members.write' as const,
      };
      await object.started.client.members.set(audit, owner, 'owner');
      const team: Team = { team_id: teamId, owner, created_at: Date.now() };
      this.ctx.storage.kv.put(TEAM_RECORD, team);
      return team;
    });
  }

  /** Writes the `api` log lines still buffered (the launcher's clean stop, through the worker). */
  async flushLogs(): Promise<void> {
    await this.object?.flushLogs();
  }

  override async alarm(): Promise<void> {
    await this.runDaily();
  }

  /** The daily run (retention cleanups, audit anchors), then the next one is scheduled. */
  async runDaily(now = Date.now()): Promise<JobReport[]> {
    return this.object ? this.object.runDaily(now) : [];
  }
}
