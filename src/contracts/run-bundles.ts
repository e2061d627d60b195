import {
  BUNDLE_PART_BODY_LIMIT,
  Bundle,
  BundleCommit,
  BundleOpened,
  BundlePart,
  BundlePartParams,
  BundlePartQuery,
  BundlePartWrite,
} from '../shared/schemas/bundle';
import { LeaseRun } from '../../storage/leases/schema';
import { IdParams } from '../shared/schemas/ids';
import { Ok } from '../shared/schemas/ok';
import { defineContract } from './define';

const DOC = 'docs/teams.md#what-travels';

/**
 * A team profile's browser data as it travels between machines (docs/teams.md#what-travels): served
 * by the team service only, like the leases (src/teams/routes.ts), and called by the machine whose run
 * holds the profile's lease: before its browser starts (open, then each part), and once it has
 * ended (each part, then the commit). Nothing here is for anyone without that lease.
 */
export const runBundles = {
  open: defineContract({
    method: 'POST',
    path: '/api/v1/runs/:id/bundle/open',
    home: 'team',
    tag: 'Runs',
    summary: "The profile's bundle key and newest version, for the run that holds its lease",
    description: `The key is derived per profile from the team's vault key; only the holder of the profile's live lease gets it (${DOC}).`,
    scopes: ['profiles:write'],
    params: IdParams,
    body: LeaseRun,
    response: BundleOpened,
    errors: ['run.lease_lost', 'vault.locked'],
  }),
  readPart: defineContract({
    method: 'GET',
    path: '/api/v1/runs/:id/bundle/parts/:part',
    home: 'team',
    tag: 'Runs',
    summary: "One encrypted part of the profile's newest version, for the run that holds its lease",
    scopes: ['profiles:write'],
    params: BundlePartParams,
    query: BundlePartQuery,
    response: BundlePart,
    errors: ['run.lease_lost', 'resource.not_found'],
  }),
  writePart: defineContract({
    method: 'PUT',
    path: '/api/v1/runs/:id/bundle/parts/:part',
    home: 'team',
    tag: 'Runs',
    summary: 'One encrypted part of an upload, under the lease and fencing number of the run that ended',
    description: `Kept beside the newest version until the commit; a lease no longer held under that fencing number is \`bundle.stale\` (${DOC}).`,
    scopes: ['profiles:write'],
    params: BundlePartParams,
    body: BundlePartWrite,
    bodyLimit: BUNDLE_PART_BODY_LIMIT,
    response: Ok,
    errors: ['bundle.stale', 'bundle.too_large'],
  }),
  commit: defineContract({
    method: 'POST',
    path: '/api/v1/runs/:id/bundle',
    home: 'team',
    tag: 'Runs',
    summary: "Keep an upload as the profile's newest version, once its parts add up to its size and hash",
    description: `The parts are read back and checked first; an upload that does not match is \`bundle.corrupt\` and the previous version is kept (${DOC}).`,
    scopes: ['profiles:write'],
    params: IdParams,
    body: BundleCommit,
    response: Bundle,
    audit: 'runs.bundle_upload',
    errors: ['bundle.stale', 'bundle.too_large', 'bundle.corrupt'],
  }),
};
