import { z } from 'zod';
import { itemList } from '../../src/shared/schemas/list';
import { UUID } from '../../src/shared/schemas/ids';

/** How long a lease lasts when the team service sets nothing else (`LPA_RUN_LEASE_MS`, docs/teams.md#settings). */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * A team profile's lease (docs/teams.md#runs-across-machines): which machine's run may have the
 * profile's browser open, until `expires_at` unless it is renewed. `fencing` grows with every grant
 * of the profile, so whatever a run writes under its lease can be told from a later run's.
 */
export const Lease = z
  .object({
    profile_id: z.string(),
    run_id: z.string(),
    machine_id: z
      .string()
      .nullable()
      .meta({ description: 'The machine the lease was taken through; null for a script.' }),
    machine_label: z.string(),
    who: z.string().meta({ description: 'The member or team token that took the lease.' }),
    fencing: z.int(),
    since: z.int(),
    renewed_at: z.int(),
    expires_at: z.int(),
    lease_ms: z.int().meta({ description: "The lease's length; the holder renews it every third of it." }),
  })
  .meta({ id: 'Lease' });
export type Lease = z.output<typeof Lease>;

export const LeaseList = itemList(Lease, 'LeaseList');

/** What a machine sends to take, renew or release a profile's lease: its run, and a name people recognise it by. */
export const LeaseTake = z
  .object({
    run_id: z.string().max(36).regex(UUID),
    machine_label: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\x20-\x7e]+$/, 'printable ASCII'),
  })
  .strict()
  .meta({ id: 'LeaseTake' });
export type LeaseTake = z.output<typeof LeaseTake>;

export const LeaseRun = z
  .object({ run_id: z.string().max(36).regex(UUID) })
  .strict()
  .meta({ id: 'LeaseRun' });
