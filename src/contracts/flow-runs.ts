import { IdParams } from '../shared/schemas/ids';
import { FlowJob, FlowJobList, FlowRunRequest, JobParams } from '../../storage/flow-runs/schema';
import { defineContract } from './define';

/** Flow runs (docs/automation.md#runs): a job runs a stored flow on running profiles, in this machine's browsers. */
export const flowRuns = {
  run: defineContract({
    method: 'POST',
    path: '/api/v1/automation/flows/:id/runs',
    home: 'local',
    tag: 'Automation',
    summary: 'Run a flow on 1..100 profiles; answers the job at once, before any browser starts',
    description:
      'Every value a step names is resolved and the flows it runs are ordered before the job starts: a missing value is `400 flows.missing_values`, a cycle `400 flows.dependency_cycle`, and nothing starts. Profiles not running are started (`headless`).',
    scopes: ['runtime:control', 'rpa:write'],
    params: IdParams,
    body: FlowRunRequest,
    status: 202,
    response: FlowJob,
    audit: 'flow_runs.start',
    errors: [
      'resource.not_found',
      'flows.unknown',
      'flows.missing_values',
      'flows.dependency_cycle',
      'flows.not_runnable',
      'flows.profile_busy',
      'run.browser_missing',
      'account.entitlement_missing',
      'vault.locked',
    ],
  }),
  list: defineContract({
    method: 'GET',
    path: '/api/v1/automation/runs',
    home: 'local',
    tag: 'Automation',
    summary: 'The newest flow jobs first (at most 50)',
    scopes: ['runtime:control'],
    response: FlowJobList,
  }),
  read: defineContract({
    method: 'GET',
    path: '/api/v1/automation/runs/:job_id',
    home: 'local',
    tag: 'Automation',
    summary: "A flow job: each profile's state, step and error",
    scopes: ['runtime:control'],
    params: JobParams,
    response: FlowJob,
    errors: ['resource.not_found'],
  }),
  cancel: defineContract({
    method: 'POST',
    path: '/api/v1/automation/runs/:job_id/cancel',
    home: 'local',
    tag: 'Automation',
    summary: 'Stop a running flow job: each profile stops before its next step (a wait is cut short)',
    scopes: ['runtime:control', 'rpa:write'],
    params: JobParams,
    response: FlowJob,
    audit: 'flow_runs.cancel',
    errors: ['resource.not_found', 'flows.job_ended'],
  }),
};
