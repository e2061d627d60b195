import { z } from 'zod';

/** What the synchronizer reports; nothing runs it yet (handlers/synchronizer.ts). */
export const SynchronizerStatus = z
  .object({
    running: z.boolean(),
    source_id: z.string().nullable(),
    follower_ids: z.array(z.string()),
    mode: z.enum(['element', 'coordinates']),
    options: z.record(z.string(), z.unknown()),
    tabs: z.array(z.unknown()),
    events: z.array(z.unknown()),
    error: z.string().nullable(),
  })
  .meta({ id: 'SynchronizerStatus' });
export type SynchronizerStatus = z.output<typeof SynchronizerStatus>;
