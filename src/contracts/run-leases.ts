import { Lease, LeaseList, LeaseRun, LeaseTake } from '../../storage/leases/schema';
import { IdParams } from '../shared/schemas/ids';
import { Ok } from '../shared/schemas/ok';
import { defineContract } from './define';
import { LIVE_RUNS_SUMMARY } from './runs';

const DOC = 'docs/teams.md#runs-across-machines';

/**
 * The leases of a team's profiles (docs/teams.md#runs-across-machines): which machine runs which
 * profile. Served by the team service only, like members (src/teams/routes.ts); a joined machine
 * takes, renews and releases them itself around its runs (handlers/team-runs.ts), and shows the list
 * at `GET /api/v1/team/runs`.
 */
export const runLeases = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/runs',
    home: 'team',
    tag: 'Runs',
    summary: LIVE_RUNS_SUMMARY,
    scopes: ['profiles:read'],
    response: LeaseList,
  }),
  take: defineContract({
    method: 'POST',
    path: '/api/v1/runs/:id/lease',
    home: 'team',
    tag: 'Runs',
    summary: "Take a profile's lease for a run of a machine, before its browser starts",
    description: `Granted with the next fencing number when no live lease holds the profile; the same run's lease again is a renewal (${DOC}).`,
    scopes: ['profiles:write'],
    params: IdParams,
    body: LeaseTake,
    response: Lease,
    audit: 'runs.lease_grant',
    errors: ['resource.not_found', 'run.locked_elsewhere'],
  }),
  renew: defineContract({
    method: 'POST',
    path: '/api/v1/runs/:id/lease/renew',
    home: 'team',
    tag: 'Runs',
    summary: "Renew a run's lease while its browser lives and answers DevTools",
    scopes: ['profiles:write'],
    params: IdParams,
    body: LeaseRun,
    response: Lease,
    errors: ['run.lease_lost'],
  }),
  release: defineContract({
    method: 'POST',
    path: '/api/v1/runs/:id/lease/release',
    home: 'team',
    tag: 'Runs',
    summary: "Release a run's lease once its browser is gone; a lease the run no longer holds is left as it is",
    scopes: ['profiles:write'],
    params: IdParams,
    body: LeaseRun,
    response: Ok,
    audit: 'runs.lease_release',
  }),
  break: defineContract({
    method: 'DELETE',
    path: '/api/v1/runs/:id',
    home: 'team',
    tag: 'Runs',
    summary: "Break a profile's live lease: the machine that holds it stops the browser (`end_reason: lease_lost`)",
    access: 'admin',
    params: IdParams,
    response: Lease,
    audit: 'runs.lease_break',
    errors: ['resource.not_found'],
  }),
};
