import { IdParams } from '../shared/schemas/ids';
import { Run, RunList, RunStart, RunStop } from '../shared/schemas/run';
import { defineContract } from './define';

const RUNS_DOC = 'docs/runs.md';

/** A profile's browser (docs/runs.md): started and stopped on this machine, whose host owns the process. */
export const runs = {
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
    errors: ['resource.not_found', 'run.active', 'run.browser_missing', 'run.start_failed'],
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
    errors: ['resource.not_found', 'run.not_running'],
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
    errors: ['resource.not_found'],
  }),
  list: defineContract({
    method: 'GET',
    path: '/api/v1/runs',
    home: 'local',
    tag: 'Runs',
    summary: 'The runs whose browser is alive',
    scopes: ['runtime:control'],
    response: RunList,
  }),
};
