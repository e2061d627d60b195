import { z } from 'zod';
import { defineContract } from './define';

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

export const synchronizer = {
  status: defineContract({
    method: 'GET',
    path: '/api/v1/automation/synchronizer',
    home: 'local',
    tag: 'Automation',
    summary: 'Synchronizer status; nothing can start it yet, so it is idle',
    scopes: ['runtime:control'],
    response: SynchronizerStatus,
  }),
};
