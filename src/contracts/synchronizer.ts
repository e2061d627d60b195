import { SynchronizerStatus } from '../shared/schemas/synchronizer';
import { defineContract } from './define';

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
