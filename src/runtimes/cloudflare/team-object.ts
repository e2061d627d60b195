import { DurableObject } from 'cloudflare:workers';
import { alarmWakeUp } from '../../../storage/durable-object';
import type { JobReport } from '../../../storage/jobs/daily-job';
import { durableSql } from '../../../storage/sql/durable-sql';
import { startStore, type StartedStore } from '../../../storage/startup';
import type { Reply, StoreCall } from '../../../storage/surface';
import type { Team } from '../../contracts/teams';
import { ApiError } from '../../shared/errors/api-error';
import { parseWrapKey } from '../../teams/key-wrap';
import { teamHost } from '../../teams/team-host';
import { teamStoreKey, type TeamId } from '../../teams/team-id';
import { wrappedKeys } from '../../teams/team-keys';

/** What a team's object is created with: the bucket of the seal records and the key-encryption key. */
export interface TeamObjectEnv {
  TEAM_FILES: R2Bucket;
  LPA_KEY_WRAP_KEY: string;
}

/** The object's own record of its team, in its key-value storage beside the store's tables. */
const TEAM_RECORD = 'team';

/**
 * One team's store: the same store as a local data root's (storage/), in the team's own SQLite
 * Durable Object, named by the team (docs/teams.md#one-durable-object-per-team). Nothing of it is
 * made before the operator creates the team: until then every store call answers `team.not_found`.
 * Its keys are made inside it at creation and kept wrapped (src/teams/team-keys.ts); its seal record
 * is in the bucket under the team's prefix; its daily run (anchors, retention) is its alarm.
 */
export class TeamObject extends DurableObject<TeamObjectEnv> {
  private started: StartedStore | undefined;

  constructor(ctx: DurableObjectState, env: TeamObjectEnv) {
    super(ctx, env);
    const team = ctx.storage.kv.get<Team>(TEAM_RECORD);
    if (team) void ctx.blockConcurrencyWhile(() => this.start(team.team_id));
  }

  private async start(teamId: TeamId): Promise<StartedStore> {
    const keys = wrappedKeys(this.ctx.storage.kv, parseWrapKey(this.env.LPA_KEY_WRAP_KEY), teamId);
    this.started = await startStore(
      durableSql(this.ctx.storage),
      teamHost({ teamId, bucket: this.env.TEAM_FILES, keys }),
      {
        storeKey: teamStoreKey(teamId),
        wakeAt: alarmWakeUp(this.ctx.storage),
      },
    );
    return this.started;
  }

  /** Whether the operator created this team. */
  exists(): boolean {
    return this.ctx.storage.kv.get(TEAM_RECORD) !== undefined;
  }

  /**
   * Creates the team: its store (with its keys, made here), its owner as its first member (audited in
   * the team's chain, the operator as actor), then the record that says the team exists. A creation
   * cut short is finished by the next one: a store that has its keys keeps them.
   */
  create(teamId: TeamId, owner: string, requestId: string): Promise<Team | null> {
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.exists()) return null;
      const store = this.started ?? (await this.start(teamId));
      const audit = {
        actor: { type: 'system' as const, id: null, label: 'operator' },
        source: 'api',
        request_id: requestId,
        action: 'members.write' as const,
      };
      const reply = await store.invoke({ family: 'members', method: 'set', args: [audit, owner, 'owner'] });
      if (!reply.ok) throw ApiError.fromWire(reply.error);
      const team: Team = { team_id: teamId, owner, created_at: Date.now() };
      this.ctx.storage.kv.put(TEAM_RECORD, team);
      return team;
    });
  }

  /** Every store call of the Worker for this team (storage/client.ts). */
  invoke(call: StoreCall): Promise<Reply> {
    if (!this.started)
      return Promise.resolve({
        ok: false,
        error: new ApiError('team.not_found', { team_id: '' }).toWire(),
        audited: false,
      });
    return this.started.invoke(call);
  }

  async alarm(): Promise<void> {
    await this.runDaily();
  }

  /** The daily run (retention cleanups, audit anchors), then the next one is scheduled. */
  async runDaily(now = Date.now()): Promise<JobReport[]> {
    return this.started ? this.started.runDaily(now) : [];
  }
}
