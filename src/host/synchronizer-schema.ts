import { z } from 'zod';
import { SynchronizerStatus, SyncMode, SyncOptions } from '../shared/schemas/synchronizer';

/** A profile of a session and its live run, whose browser the host owns. */
const SyncMember = z.object({ profile_id: z.string(), run_id: z.string() });

/** A synchronizer start as the store asks the host for it, once every profile runs. */
export const SyncLaunch = z.object({
  source: SyncMember,
  followers: z.array(SyncMember).min(1).max(50),
  mode: SyncMode,
  options: SyncOptions,
});
export type SyncLaunch = z.output<typeof SyncLaunch>;

/** How a start ended: the status, or why not (`running`: a session is on; `run_gone`: that profile's browser is gone). */
export const SyncStartResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), status: SynchronizerStatus }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['running', 'run_gone']),
    profile_id: z.string().nullable(),
    error: z.string().nullable(),
  }),
]);
export type SyncStartResult = z.output<typeof SyncStartResult>;
