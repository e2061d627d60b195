import { ApiError } from '../../src/shared/errors/api-error';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import type { RunLeases } from '../leases/leases';
import type { Lease } from '../leases/schema';
import { first } from '../sql/sql';
import type { Bundle, BundleCommit } from '../../src/shared/schemas/bundle';

const COLUMNS = 'profile_id, run_id, machine_label, fencing, parts, size, sha256, uploaded_at';

/** Where a version's parts are in the team's bucket: one folder per version, so a new upload never touches the kept one. */
export const bundleFolder = (bundle: Pick<Bundle, 'profile_id' | 'fencing' | 'run_id'>) =>
  `${bundle.profile_id}/${bundle.fencing}-${bundle.run_id}/`;

/**
 * The newest version of each team profile's browser data (docs/teams.md#what-travels). Only the run
 * that holds the profile's lease reads or writes it, and an upload counts only under the lease's
 * current fencing number: a machine that lost its lease cannot overwrite what a later run uploaded.
 */
export class ProfileBundles {
  constructor(
    private readonly ctx: StoreContext,
    private readonly leases: RunLeases,
  ) {}

  current(profileId: string): Bundle | null {
    return first<Bundle>(this.ctx.db, `SELECT ${COLUMNS} FROM profile_bundles WHERE profile_id = ?`, profileId) ?? null;
  }

  /** The profile's bundle key, for the run that holds its lease: derived from the team's vault key, per profile. */
  key(profileId: string, runId: string): Uint8Array {
    this.holder(profileId, runId);
    return this.ctx.vault.derive(`lpa profile bundle v1 ${profileId}`);
  }

  /** The live lease of `runId`, or `run.lease_lost`. */
  holder(profileId: string, runId: string): Lease {
    const lease = this.leases.heldBy(profileId, runId);
    if (!lease) throw new ApiError('run.lease_lost', { profile_id: profileId, run_id: runId });
    return lease;
  }

  /**
   * The lease an upload is made under: live, this run's, with this fencing number; and no version of
   * this run recorded yet (its parts' folder is the kept version's). Otherwise `bundle.stale`.
   */
  writer(profileId: string, runId: string, fencing: number): Lease {
    const lease = this.leases.heldBy(profileId, runId);
    const kept = this.current(profileId);
    if (!lease || lease.fencing !== fencing || (kept !== null && kept.fencing >= fencing))
      throw new ApiError('bundle.stale', {
        profile_id: profileId,
        fencing,
        lease_fencing: this.leases.latest(profileId)?.fencing ?? null,
      });
    return lease;
  }

  /** Records an upload whose parts were checked as the newest version; the one it replaces is returned, for its parts to go. */
  commit(audit: AuditContext, profileId: string, upload: BundleCommit): { bundle: Bundle; replaced: Bundle | null } {
    return this.ctx.change(
      audit,
      () => {
        const lease = this.writer(profileId, upload.run_id, upload.fencing);
        const replaced = this.current(profileId);
        const bundle: Bundle = {
          profile_id: profileId,
          run_id: upload.run_id,
          machine_label: lease.machine_label,
          fencing: upload.fencing,
          parts: upload.parts,
          size: upload.size,
          sha256: upload.sha256,
          uploaded_at: this.ctx.now(),
        };
        this.ctx.db.run(
          `INSERT INTO profile_bundles (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (profile_id) DO UPDATE SET run_id = excluded.run_id, machine_label = excluded.machine_label,
             fencing = excluded.fencing, parts = excluded.parts, size = excluded.size, sha256 = excluded.sha256,
             uploaded_at = excluded.uploaded_at`,
          bundle.profile_id,
          bundle.run_id,
          bundle.machine_label,
          bundle.fencing,
          bundle.parts,
          bundle.size,
          bundle.sha256,
          bundle.uploaded_at,
        );
        return { bundle, replaced };
      },
      ({ bundle }) => ({
        entity_type: 'profile',
        entity_id: profileId,
        details: {
          run_id: bundle.run_id,
          machine_label: bundle.machine_label,
          fencing: bundle.fencing,
          parts: bundle.parts,
          size: bundle.size,
          sha256: bundle.sha256,
        },
      }),
    );
  }
}
