import { z } from 'zod';
import { TEAM_HEAD_VALUE } from '../../src/shared/schemas/team';
import { AuditCheckpoint } from '../audit/schema';

/** How many distinct team heads a machine keeps: the newest, by seq. */
export const WITNESS_LIMIT = 10_000;

/** One head of the team's chain as a team answer named it (`X-LPA-Team-Head: <seq>,<hash>`). */
export const TeamHead = z.object({ seq: z.int().min(0), hash: z.string().regex(/^[0-9a-f]{64}$/) });
export type TeamHead = z.output<typeof TeamHead>;

/** The header's value as a head; null when it is not one (a team that sent none, or garbage). */
export function parseTeamHead(header: string | null | undefined): TeamHead | null {
  if (!header || !TEAM_HEAD_VALUE.test(header)) return null;
  const [seq, hash] = header.split(',') as [string, string];
  return { seq: Number(seq), hash };
}

/** The team's newest signed checkpoint this machine fetched, with the public key it pinned the first time. */
export const PinnedCheckpoint = z
  .object({
    key_id: z.string(),
    public_key_pem: z.string(),
    /** When the key was first seen (epoch ms): from then on a checkpoint signed by another key is a finding. */
    pinned_at: z.int(),
    checkpoint: AuditCheckpoint,
    fetched_at: z.int(),
  })
  .meta({ id: 'PinnedCheckpoint' });
export type PinnedCheckpoint = z.output<typeof PinnedCheckpoint>;

/** What a machine has witnessed of its team's chain. */
export const WitnessSummary = z.object({
  /** Distinct heads kept (at most the newest 10,000). */
  heads: z.int(),
  oldest_seq: z.int().nullable(),
  newest: z.object({ seq: z.int(), hash: z.string(), seen_at: z.int() }).nullable(),
  checkpoint: PinnedCheckpoint.nullable(),
});
export type WitnessSummary = z.output<typeof WitnessSummary>;

/** One page of witnessed heads, oldest first, from just after `after_seq`. */
export const WitnessPage = z.object({ items: z.array(TeamHead), next_after_seq: z.int().nullable() });
export type WitnessPage = z.output<typeof WitnessPage>;
