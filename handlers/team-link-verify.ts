import type { z } from 'zod';
import type { StoreClient } from '../storage/client';
import { keyId, publicKeyFromPem, signatureValid } from '../storage/audit/signing';
import type { PinnedCheckpoint } from '../storage/witness/schema';
import { audit } from '../src/contracts/audit';
import type { TeamVerification } from '../src/contracts/team-link';

/** Reads one of the team's GET routes as this machine: its declaration gives the path and the answer's schema. */
export type TeamGet = <R extends z.ZodType>(
  route: { path: string; response?: R },
  query?: Record<string, number>,
) => Promise<z.output<R>>;

/** The team pages a verify may ask for: the bound of its work, whatever the witness holds. */
export const VERIFY_PAGE_LIMIT = 100;
const PAGE = 1000;

const noFinding = { finding: null, fork_at: null, witnessed_hash: null, team_hash: null } as const;

/**
 * `POST /api/v1/team/verify` (docs/teams.md#audit-across-machines): the team's signed checkpoint
 * checked with the key this machine pinned, then every witnessed head compared, oldest first, with
 * the hash the team has at that seq now. The first difference is the fork; on success the checkpoint
 * is kept (its head witnessed too) and the key pinned if this was the first time. Everything read and
 * kept is the link `team`'s (the team URL): another team's heads and pin are never compared. A
 * finding keeps nothing.
 */
export async function verifyTeam(
  store: StoreClient,
  team: string,
  teamGet: TeamGet,
  now: number,
): Promise<TeamVerification> {
  const key = await teamGet(audit.publicKey);
  const checkpoint = await teamGet(audit.checkpoint);
  const pinned = await store.witness.checkpoint(team);
  const teamHead = { seq: checkpoint.seq, hash: checkpoint.hash };
  const result = (rest: Partial<TeamVerification> & Pick<TeamVerification, 'ok' | 'finding'>): TeamVerification => ({
    checked: 0,
    unchecked: 0,
    team_head: teamHead,
    fork_at: null,
    witnessed_hash: null,
    team_hash: null,
    ...rest,
  });
  if (
    pinned &&
    (pinned.key_id !== key.key_id ||
      pinned.public_key_pem !== key.public_key_pem ||
      pinned.checkpoint.store_id !== checkpoint.store_id)
  ) {
    return result({ ok: false, finding: 'key_changed' });
  }
  const pem = pinned?.public_key_pem ?? key.public_key_pem;
  const publicKey = publicKeyFromPem(pem);
  const { hash, seq, store_id, ts } = checkpoint;
  // The key's id is the hash of the key itself: a key_id that is not the PEM's is as bad as a bad signature.
  const signedBy = publicKey === null ? null : keyId(publicKey);
  if (
    checkpoint.key_id !== signedBy ||
    key.key_id !== signedBy ||
    !signatureValid(publicKey, { hash, seq, store_id, ts }, checkpoint.signature)
  ) {
    return result({ ok: false, finding: 'bad_signature' });
  }
  const ahead = (await store.witness.heads(team, checkpoint.seq, 1)).items[0];
  if (ahead) return result({ ok: false, finding: 'rolled_back', fork_at: ahead.seq, witnessed_hash: ahead.hash });

  const compared = await compare(store, team, teamGet);
  if (compared.fork)
    return result({
      ok: false,
      finding: 'fork',
      ...compared.fork,
      checked: compared.checked,
      unchecked: compared.unchecked,
    });
  const kept: PinnedCheckpoint = {
    key_id: key.key_id,
    public_key_pem: pem,
    pinned_at: pinned?.pinned_at ?? now,
    checkpoint,
    fetched_at: now,
  };
  await store.witness.keep(team, kept);
  await store.witness.see(team, teamHead);
  return result({ ok: true, ...noFinding, checked: compared.checked, unchecked: compared.unchecked });
}

interface Compared {
  checked: number;
  unchecked: number;
  fork?: { fork_at: number; witnessed_hash: string; team_hash: string | null };
}

/**
 * Walks the witnessed heads oldest first; for each one the last team page does not cover, asks the
 * team for a page of hashes from that seq. A seq older than the team's oldest entry was purged by
 * the team's retention (unchecked); one missing in between, or with another hash, is the fork.
 */
async function compare(store: StoreClient, team: string, teamGet: TeamGet): Promise<Compared> {
  const oldest = (await teamGet(audit.hashes, { after_seq: 0, limit: 1 })).items[0]?.seq ?? Infinity;
  let hashes = new Map<number, string>();
  let covered = -1;
  let pages = 0;
  let checked = 0;
  let unchecked = 0;
  let after = 0;
  for (;;) {
    const page = await store.witness.heads(team, after, PAGE);
    for (const head of page.items) {
      if (head.seq < oldest) {
        unchecked += 1;
        continue;
      }
      if (head.seq > covered) {
        if (pages === VERIFY_PAGE_LIMIT) {
          unchecked += 1;
          continue;
        }
        pages += 1;
        const answer = await teamGet(audit.hashes, { after_seq: head.seq - 1, limit: PAGE });
        hashes = new Map(answer.items.map((item) => [item.seq, item.hash]));
        covered = answer.next_after_seq ?? Infinity;
      }
      const teamHash = hashes.get(head.seq) ?? null;
      if (teamHash !== head.hash)
        return { checked, unchecked, fork: { fork_at: head.seq, witnessed_hash: head.hash, team_hash: teamHash } };
      checked += 1;
    }
    if (page.next_after_seq === null) return { checked, unchecked };
    after = page.next_after_seq;
  }
}
