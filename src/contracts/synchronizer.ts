import { IdParams } from '../shared/schemas/ids';
import { SynchronizerStatus, SyncStart, SyncStop } from '../shared/schemas/synchronizer';
import { defineContract } from './define';

const DOC = 'docs/automation.md#synchronizer';

/** The synchronizer (docs/automation.md#synchronizer): one profile's input mirrored on others, by this machine's host. */
export const synchronizer = {
  status: defineContract({
    method: 'GET',
    path: '/api/v1/automation/synchronizer',
    home: 'local',
    tag: 'Automation',
    summary:
      "Synchronizer status: its source and followers, what it mirrors, the tabs it pairs, each follower's counters, the last error",
    scopes: ['runtime:control'],
    response: SynchronizerStatus,
  }),
  start: defineContract({
    method: 'POST',
    path: '/api/v1/automation/synchronizer/start',
    home: 'local',
    tag: 'Automation',
    summary: "Start mirroring the source profile's input on the followers",
    description: `Profiles that are not running are started first (each audited as \`runs.start\`); running ones are attached to. When an account is signed in, its \`entitlements.synchronizer\` is needed (${DOC}).`,
    scopes: ['runtime:control'],
    body: SyncStart,
    response: SynchronizerStatus,
    audit: 'synchronizer.start',
    errors: [
      'resource.not_found',
      'synchronizer.running',
      'account.entitlement_missing',
      'run.browser_missing',
      'run.start_failed',
      'run.not_running',
      'account.running_limit',
      'account.daily_starts_limit',
    ],
  }),
  stop: defineContract({
    method: 'POST',
    path: '/api/v1/automation/synchronizer/stop',
    home: 'local',
    tag: 'Automation',
    summary: "Stop the synchronizer; with `stop_browsers`, the source's and the followers' browsers too",
    description: 'The body is optional.',
    scopes: ['runtime:control'],
    body: SyncStop,
    bodyOptional: true,
    response: SynchronizerStatus,
    audit: 'synchronizer.stop',
    errors: ['synchronizer.not_running'],
  }),
  removeFollower: defineContract({
    method: 'DELETE',
    path: '/api/v1/automation/synchronizer/followers/:id',
    home: 'local',
    tag: 'Automation',
    summary: 'Take a follower out of the synchronizer (the last one out stops it); its browser goes on',
    scopes: ['runtime:control'],
    params: IdParams,
    response: SynchronizerStatus,
    audit: 'synchronizer.followers_remove',
    errors: ['synchronizer.not_running', 'resource.not_found'],
  }),
};
