import { STORE_ROUTES, watchRuns } from '../../handlers';
import type { JobReport } from '../../storage/jobs/daily-job';
import type { SqlDb } from '../../storage/sql/sql';
import { startStore, type StartedStore, type StoreStartOptions } from '../../storage/startup';
import type { HostPort } from '../host/port';
import { createApp, createRefusals, type App, type Arrival, type Connection } from '../pipeline/app';
import { localAuthenticator } from '../pipeline/authenticate';
import { LimiterThrottle, type SpendFailure } from '../pipeline/limiter-throttle';
import type { Config } from '../shared/config';
import { TEAM_HEAD_HEADER, teamHeadValue } from '../shared/schemas/team';
import { StoreMemory } from '../shared/store-memory';
import type { AccessVerifier } from '../teams/access-jwt';
import { teamAuthenticator } from '../teams/identity';
import { TEAM_ROUTES } from '../teams/routes';

/** A team's store: how its members sign in, and the shared budget of its failed authentications. */
export interface TeamParts {
  teamId: string;
  verifyAccess: AccessVerifier | null;
  /** Spends one failed authentication of a client (on Cloudflare, the Rate Limiting binding). */
  spendFailure: SpendFailure;
}

/** A team's throttle: its failures spent from the shared budget of the team and the client. */
const teamThrottle = (team: TeamParts) =>
  new LimiterThrottle((client) => team.spendFailure(`${team.teamId}:${client}`));

/**
 * How the object of a team no operator created answers: as a team that knows no token and no
 * member, its guards, throttle and authentication the same, so that a caller without valid
 * credentials cannot tell it from a team that exists (docs/teams.md#routes). Nothing is kept for it
 * but its throttle's blocks, in memory.
 */
export function uncreatedTeam(config: Config, team: TeamParts): App {
  return createRefusals({
    config,
    authenticate: teamAuthenticator(team.verifyAccess, null),
    throttle: teamThrottle(team),
  });
}

/** What a runtime hands a store's object: its database, its host port, its configuration, its wake-up. */
export interface StoreObjectParts {
  db: SqlDb;
  host: HostPort;
  config: Config;
  wakeAt: StoreStartOptions['wakeAt'];
  /** A team's store (src/teams); absent for the local store of a data root. */
  team?: TeamParts;
}

/**
 * One store and the pipeline that serves it: where every request that needs a store is run, over
 * the store's own families, with everything that belongs to the store (its tokens, throttle,
 * denial windows, api log buffer, handlers' slots) in this object's memory. The same class for the
 * local store and for each team's; under workerd and on Cloudflare a Durable Object holds it
 * (./durable-store-object.ts), under Bun and Deno the process does (src/runtimes/in-process.ts).
 */
export class StoreObject {
  /** What this store's handlers keep in memory (src/shared/store-memory.ts). */
  readonly memory = new StoreMemory();
  private readonly app: App;

  /** Opens the store (keys, migrations, the start's audit and log lines) and builds its pipeline. */
  static async start(parts: StoreObjectParts): Promise<StoreObject> {
    return new StoreObject(await startStore(parts.db, parts.host, { wakeAt: parts.wakeAt }), parts);
  }

  /** The pipeline over a started store (`start`; a test may serve the same store with other parts). */
  constructor(
    readonly started: StartedStore,
    parts: Omit<StoreObjectParts, 'db' | 'wakeAt'>,
  ) {
    const served = { client: started.client, memory: this.memory };
    const { store } = started;
    const { team } = parts;
    this.app = team
      ? createApp(TEAM_ROUTES, {
          config: parts.config,
          host: parts.host,
          logs: parts.host.logs,
          store: served,
          authenticate: teamAuthenticator(team.verifyAccess, store),
          throttle: teamThrottle(team),
          acceptsMachines: true,
          // The team chain's head at or after this request's own entries: what a joined machine keeps
          // as a witness of the team's history (docs/teams.md#audit-across-machines); on the answers to
          // a request the team let in only, so that a refusal says nothing of the team.
          answered: (response) => response.headers.set(TEAM_HEAD_HEADER, teamHeadValue(store.system.chainTip())),
        })
      : // The local front writes the api log, every line in one buffer (src/runtimes/service.ts).
        createApp(STORE_ROUTES, {
          config: parts.config,
          host: parts.host,
          store: served,
          authenticate: localAuthenticator(parts.config, store),
        });
    // Runs a stopped service left behind are recorded as ended at once (handlers/runs.ts); a team runs no browsers.
    if (!team) watchRuns({ host: parts.host, store: started.client, memory: this.memory, config: parts.config });
  }

  /** A request the entry's front passed its guards (src/pipeline/app.ts). */
  serve(request: Request, arrival: Arrival, waitUntil: Connection['waitUntil']): Promise<Response> {
    return this.app.arrived(request, arrival, waitUntil);
  }

  /** The daily run (retention cleanups, audit anchors); it asks for the next wake-up. */
  runDaily(now = Date.now()): Promise<JobReport[]> {
    return this.started.runDaily(now);
  }

  /** Writes the `api` log lines still buffered (a clean stop). */
  flushLogs(): Promise<void> {
    return this.app.flushLogs();
  }
}
