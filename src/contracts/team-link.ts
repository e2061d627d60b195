import { z } from 'zod';
import { TransferPage, TransferQuery } from '../../storage/transfer/schema';
import { WitnessSummary } from '../../storage/witness/schema';
import { LeaseList } from '../../storage/leases/schema';
import { defineContract } from './define';

export const TeamLinkStatus = z
  .object({
    /** Whether this machine works in a team (LPA_TEAM_URL or `<data root>/team.json`). */
    joined: z.boolean(),
    url: z.string().nullable(),
    /** This machine's id, as the team's chain records it in `details.via.machine_id`. */
    machine_id: z.string().nullable(),
    witness: WitnessSummary,
  })
  .meta({ id: 'TeamLinkStatus' });

const Head = z.object({ seq: z.int(), hash: z.string() });

export const TeamVerification = z
  .object({
    ok: z.boolean(),
    /** Witnessed heads compared with the team's chain. */
    checked: z.int(),
    /** Witnessed heads that could not be compared: older than the team's oldest entry (retention). */
    unchecked: z.int(),
    /** The head the team's checkpoint signed now. */
    team_head: Head.nullable(),
    /**
     * What is wrong when `ok` is false: `fork` (a witnessed entry's hash differs from the team's),
     * `rolled_back` (the team's head is before a seq this machine saw), `key_changed` (the checkpoint
     * is signed by another key, or for another store, than the one pinned), `bad_signature`.
     */
    finding: z.enum(['fork', 'rolled_back', 'key_changed', 'bad_signature']).nullable(),
    /** The smallest witnessed seq whose hash the team no longer has. */
    fork_at: z.int().nullable(),
    witnessed_hash: z.string().nullable(),
    team_hash: z.string().nullable(),
  })
  .meta({ id: 'TeamVerification' });
export type TeamVerification = z.output<typeof TeamVerification>;

/**
 * This machine's link to its team, served by the machine itself (docs/teams.md#audit-across-machines):
 * what it has witnessed of the team's chain, and the check of that against the team's chain now.
 */
export const team = {
  status: defineContract({
    method: 'GET',
    path: '/api/v1/team',
    home: 'local',
    tag: 'Team',
    summary: "The team this machine joined, its machine id, and what it has witnessed of the team's audit chain",
    scopes: ['audit:read'],
    response: TeamLinkStatus,
  }),
  verify: defineContract({
    method: 'POST',
    path: '/api/v1/team/verify',
    home: 'local',
    tag: 'Team',
    summary:
      "Check the team's signed checkpoint with the pinned key and every witnessed head against the team's chain; a fork names its seq",
    description:
      "Fetches the team's public key and signed checkpoint (the key is pinned the first time), checks the signature, that the team's head " +
      'is not before the newest seq this machine saw, and that the hash the team has at each witnessed seq is the one this machine saw. ' +
      'Bounded work: pages of `GET /api/v1/audit/hashes`, at most 100 of them.',
    scopes: ['audit:read'],
    response: TeamVerification,
    errors: ['team.not_joined', 'team.unreachable', 'team.refused', 'team.bad_answer'],
  }),
  runs: defineContract({
    method: 'GET',
    path: '/api/v1/team/runs',
    home: 'local',
    tag: 'Team',
    summary:
      "The team's live leases, as the team answers them: which team profile runs on which machine, for whom, until when",
    description:
      "The team's own `GET /api/v1/runs` (docs/teams.md#runs-across-machines), asked by this machine with its team token.",
    scopes: ['profiles:read'],
    response: LeaseList,
    errors: ['team.unreachable', 'team.refused', 'team.bad_answer'],
  }),
  export: defineContract({
    method: 'GET',
    path: '/api/v1/team/export',
    home: 'local',
    tag: 'Team',
    summary:
      "One page of this machine's own store, secrets in plaintext, with its signed checkpoint: what `lpa team push` copies into a team",
    description:
      "Always this machine's store, joined to a team or not. Kinds in push order: `profiles`, `accounts` (passwords and 2FA secrets opened), " +
      '`globals` (with their revisions and values), `flows` (protected values opened), `shares` (the bundle still sealed under the share key, ' +
      'so its code redeems wherever it is pushed). A page holds at most 500 items and about 512 KiB; pass `next_offset` as `offset` until it is null. ' +
      'Each page is audited as a secret read (`team.export`).',
    access: 'admin',
    query: TransferQuery,
    response: TransferPage,
    audit: 'team.export',
  }),
};
