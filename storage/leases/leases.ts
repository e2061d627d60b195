import { ApiError } from '../../src/shared/errors/api-error';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import type { Profiles } from '../profiles/profiles';
import { first } from '../sql/sql';
import type { Lease, LeaseTake } from './schema';

type LeaseRow = Omit<Lease, 'lease_ms'> & { ended_at: number | null };

const COLUMNS = 'profile_id, run_id, machine_id, machine_label, who, fencing, since, renewed_at, expires_at, ended_at';

const toLease = ({ ended_at: _, ...row }: LeaseRow): Lease => ({ ...row, lease_ms: row.expires_at - row.renewed_at });

/** Who takes a lease: the grant's run and machine, and the member or token that asks. */
export type LeaseGrant = LeaseTake & { profile_id: string; machine_id: string | null; who: string };

/**
 * The leases of a team's profiles (docs/teams.md#runs-across-machines): at most one live lease per
 * profile, held by one run of one machine until it is released, broken, or not renewed in time. A
 * vanished machine needs no unlock: its lease is simply no longer live once `expires_at` passes. Grants,
 * releases and breaks are audit entries in the team's chain; renewals are not (one every 20 s per
 * running profile would drown the chain and say nothing the grant and release do not).
 */
export class RunLeases {
  constructor(
    private readonly ctx: StoreContext,
    private readonly profiles: Profiles,
  ) {}

  /** The live leases, oldest first. */
  live(): Lease[] {
    return this.ctx.db
      .all<LeaseRow>(
        `SELECT ${COLUMNS} FROM run_leases WHERE ended_at IS NULL AND expires_at > ? ORDER BY since`,
        this.ctx.now(),
      )
      .map(toLease);
  }

  /**
   * The profile's lease for `grant.run_id`: granted with the next fencing number when nobody holds it
   * (or the last holder's expired), renewed when this run holds it already (a start asked again), and
   * `run.locked_elsewhere` naming the holder when another run does.
   */
  take(audit: AuditContext, grant: LeaseGrant, leaseMs: number): Lease {
    this.profiles.require(grant.profile_id);
    const now = this.ctx.now();
    const row = this.row(grant.profile_id);
    const held = row && row.ended_at === null && row.expires_at > now;
    if (held && row.run_id === grant.run_id) return this.renew(grant.profile_id, grant.run_id, leaseMs);
    if (held)
      throw new ApiError('run.locked_elsewhere', {
        profile_id: row.profile_id,
        machine_id: row.machine_id,
        machine_label: row.machine_label,
        who: row.who,
        since: row.since,
        expires_at: row.expires_at,
      });
    // The lease a vanished machine let expire: named in the grant's entry, which is where its end is recorded.
    const expired = row && row.ended_at === null ? { run_id: row.run_id, machine_label: row.machine_label } : null;
    return this.ctx.change(
      audit,
      () => {
        this.ctx.db.run(
          `INSERT INTO run_leases (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
           ON CONFLICT (profile_id) DO UPDATE SET run_id = excluded.run_id, machine_id = excluded.machine_id,
             machine_label = excluded.machine_label, who = excluded.who, fencing = excluded.fencing,
             since = excluded.since, renewed_at = excluded.renewed_at, expires_at = excluded.expires_at, ended_at = NULL`,
          grant.profile_id,
          grant.run_id,
          grant.machine_id,
          grant.machine_label,
          grant.who,
          (row?.fencing ?? 0) + 1,
          now,
          now,
          now + leaseMs,
        );
        return toLease(this.row(grant.profile_id)!);
      },
      (lease) => subject(lease, { expires_at: lease.expires_at, ...(expired ? { took_over_expired: expired } : {}) }),
    );
  }

  /** Another `leaseMs` for the run that holds the lease; `run.lease_lost` when it no longer does (expired, released, broken). */
  renew(profileId: string, runId: string, leaseMs: number): Lease {
    const now = this.ctx.now();
    const row = this.row(profileId);
    if (!row || row.run_id !== runId || row.ended_at !== null || row.expires_at <= now)
      throw new ApiError('run.lease_lost', { profile_id: profileId, run_id: runId });
    this.ctx.db.run(
      'UPDATE run_leases SET renewed_at = ?, expires_at = ? WHERE profile_id = ?',
      now,
      now + leaseMs,
      profileId,
    );
    return toLease(this.row(profileId)!);
  }

  /** The profile's live lease when `runId` holds it; null otherwise. */
  heldBy(profileId: string, runId: string): Lease | null {
    const row = this.row(profileId);
    return row && row.run_id === runId && row.ended_at === null && row.expires_at > this.ctx.now()
      ? toLease(row)
      : null;
  }

  /** The profile's last lease, live or not: its fencing number is the newest. */
  latest(profileId: string): Lease | null {
    const row = this.row(profileId);
    return row ? toLease(row) : null;
  }

  /** The holder's release; false (and nothing recorded) when this run does not hold the lease any more. */
  release(audit: AuditContext, profileId: string, runId: string): boolean {
    const row = this.row(profileId);
    if (!row || row.run_id !== runId || row.ended_at !== null) return false;
    this.ctx.change(
      audit,
      () => this.end(profileId),
      () => subject(toLease(row), { expired: row.expires_at <= this.ctx.now() }),
    );
    return true;
  }

  /** An owner's or admin's break of the live lease: the holder's next renewal fails and its machine stops the browser. */
  break(audit: AuditContext, profileId: string): Lease {
    const row = this.row(profileId);
    if (!row || row.ended_at !== null || row.expires_at <= this.ctx.now())
      throw new ApiError('resource.not_found', { resource: 'lease', id: profileId });
    const lease = toLease(row);
    this.ctx.change(
      audit,
      () => this.end(profileId),
      () => subject(lease, {}),
    );
    return lease;
  }

  private end(profileId: string): void {
    this.ctx.db.run('UPDATE run_leases SET ended_at = ? WHERE profile_id = ?', this.ctx.now(), profileId);
  }

  private row(profileId: string): LeaseRow | undefined {
    return first<LeaseRow>(this.ctx.db, `SELECT ${COLUMNS} FROM run_leases WHERE profile_id = ?`, profileId);
  }
}

/** A lease's audit subject: the profile, and who held it where (never anything of the browser). */
const subject = (lease: Lease, details: Record<string, unknown>) => ({
  entity_type: 'profile',
  entity_id: lease.profile_id,
  details: {
    run_id: lease.run_id,
    machine_id: lease.machine_id,
    machine_label: lease.machine_label,
    who: lease.who,
    fencing: lease.fencing,
    ...details,
  },
});
