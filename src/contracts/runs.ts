import { IdParams } from '../shared/schemas/ids';
import {
  Run,
  RunBatchResults,
  RunBatchStart,
  RunBatchStop,
  RunList,
  RunScreenshot,
  RunStart,
  RunStop,
} from '../shared/schemas/run';
import { ProxyCheck, ProxyCheckRequest } from '../shared/schemas/proxy';
import { defineContract } from './define';

const RUNS_DOC = 'docs/runs.md';

/**
 * `GET /api/v1/runs` on a machine and on a team: one operation in both OpenAPI documents, whose answer
 * is what each knows of live runs (a machine its browsers, a team its leases: src/contracts/run-leases.ts).
 */
export const LIVE_RUNS_SUMMARY =
  "The runs whose browser is alive: a machine's own; on a team, its live leases (which machine runs which profile)";

/** A profile's browser (docs/runs.md): started and stopped on this machine, whose host owns the process. */
export const runs = {
  // Before `start`: `/profiles/batch/start` would otherwise be the start of a profile called `batch`.
  batchStart: defineContract({
    method: 'POST',
    path: '/api/v1/profiles/batch/start',
    home: 'local',
    tag: 'Runs',
    summary: 'Start up to 100 profiles, a few at a time; each one succeeds or fails alone',
    scopes: ['runtime:control'],
    body: RunBatchStart,
    response: RunBatchResults,
    audit: 'runs.start',
  }),
  batchStop: defineContract({
    method: 'POST',
    path: '/api/v1/profiles/batch/stop',
    home: 'local',
    tag: 'Runs',
    summary: 'Stop up to 100 profiles; each one succeeds or fails alone',
    scopes: ['runtime:control'],
    body: RunBatchStop,
    response: RunBatchResults,
    audit: 'runs.stop',
  }),
  stopAll: defineContract({
    method: 'POST',
    path: '/api/v1/runs/stop-all',
    home: 'local',
    tag: 'Runs',
    summary: 'Stop every live run',
    description: 'The body is optional.',
    scopes: ['runtime:control'],
    body: RunStop,
    bodyOptional: true,
    response: RunBatchResults,
    audit: 'runs.stop',
  }),
  start: defineContract({
    method: 'POST',
    path: '/api/v1/profiles/:id/start',
    home: 'local',
    tag: 'Runs',
    summary: "Start a profile's browser; answers once it answers DevTools",
    description: `The run's \`ws_endpoint\` and \`http_endpoint\` are on LPA's own port and work only while the run lives (${RUNS_DOC}). The body is optional.`,
    scopes: ['runtime:control'],
    params: IdParams,
    body: RunStart,
    bodyOptional: true,
    response: Run,
    audit: 'runs.start',
    errors: [
      'resource.not_found',
      'run.active',
      'run.browser_missing',
      'run.start_failed',
      'account.running_limit',
      'account.daily_starts_limit',
      'proxy.auth_failed',
      'proxy.unreachable',
      'proxy.check_failed',
      'proxy.not_set',
      'run.locked_elsewhere',
      'run.lease_lost',
      'team.unreachable',
      'team.refused',
    ],
  }),
  stop: defineContract({
    method: 'POST',
    path: '/api/v1/profiles/:id/stop',
    home: 'local',
    tag: 'Runs',
    summary:
      "Stop a profile's browser: asked to close (so its data is flushed), killed after 10 s or at once with `force`",
    description: 'The body is optional.',
    scopes: ['runtime:control'],
    params: IdParams,
    body: RunStop,
    bodyOptional: true,
    response: Run,
    audit: 'runs.stop',
    errors: ['resource.not_found', 'run.not_running', 'team.unreachable'],
  }),
  read: defineContract({
    method: 'GET',
    path: '/api/v1/profiles/:id/run',
    home: 'local',
    tag: 'Runs',
    summary: "A profile's latest run",
    scopes: ['runtime:control'],
    params: IdParams,
    response: Run,
    errors: ['resource.not_found', 'team.unreachable'],
  }),
  screenshot: defineContract({
    method: 'GET',
    path: '/api/v1/profiles/:id/screenshot',
    home: 'local',
    tag: 'Runs',
    summary: "A PNG of a running profile's first page, base64",
    scopes: ['runtime:control'],
    params: IdParams,
    response: RunScreenshot,
    errors: ['resource.not_found', 'run.not_running', 'team.unreachable'],
  }),
  checkProxy: defineContract({
    method: 'POST',
    path: '/api/v1/profiles/:id/proxy/check',
    home: 'local',
    tag: 'Runs',
    summary: "Fetch a URL through the profile's proxy, as its browser would",
    description:
      '`ok` when the site answered through the proxy, whatever its status; otherwise `error_code` says why (docs/proxies.md).',
    scopes: ['runtime:control'],
    params: IdParams,
    body: ProxyCheckRequest,
    response: ProxyCheck,
    audit: 'profiles.proxy_check',
    errors: ['resource.not_found', 'proxy.not_set'],
  }),
  list: defineContract({
    method: 'GET',
    path: '/api/v1/runs',
    home: 'local',
    tag: 'Runs',
    summary: LIVE_RUNS_SUMMARY,
    scopes: ['runtime:control'],
    response: RunList,
  }),
};
