import { z } from 'zod';
import { defineRoute } from '../src/routes/define';

const SynchronizerStatus = z
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

export const automationSynchronizerRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/automation/synchronizer',
    tag: 'Automation',
    summary: 'Synchronizer status; nothing can start it yet, so it is idle',
    scopes: ['runtime:control'],
    response: SynchronizerStatus,
    handler: () => ({
      running: false,
      source_id: null,
      follower_ids: [],
      mode: 'element' as const,
      options: {},
      tabs: [],
      events: [],
      error: null,
    }),
  }),
];
