import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { ActionNote } from '../components/notes';
import { Facts, Section, Show } from '../components/section';
import { time } from '../format';
import { useMay } from '../may';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

type Verification = Answer<'POST', '/api/v1/team/verify'>;

/**
 * This machine's link to its team (docs/teams.md#audit-across-machines): the team, the machine's id,
 * what it has witnessed of the team's chain, and the witness check against the team's chain now.
 */
export function TeamLink({ api }: { api: Api }) {
  const link = useLoad(() => api.call('GET', '/api/v1/team'), 'team');
  const check = useAction();
  const may = useMay();
  const [verdict, setVerdict] = useState<Verification | null>(null);
  return (
    <Section title="Team">
      <Show loaded={link} label="the team link">
        {(l) =>
          !l.joined ? (
            <p>This machine works alone: it has joined no team.</p>
          ) : (
            <>
              <Facts
                items={[
                  ['Team', <code>{l.url}</code>],
                  ['Machine id', <code>{l.machine_id}</code>],
                  ['Witnessed heads', String(l.witness.heads)],
                  ['Oldest witnessed', l.witness.oldest_seq === null ? 'none' : `seq ${l.witness.oldest_seq}`],
                  [
                    'Newest witnessed',
                    l.witness.newest ? `seq ${l.witness.newest.seq}, seen ${time(l.witness.newest.seen_at)}` : 'none',
                  ],
                  ['Pinned key id', l.witness.checkpoint ? <code>{l.witness.checkpoint.key_id}</code> : 'none'],
                  ["Team's last checkpoint", time(l.witness.checkpoint?.fetched_at)],
                ]}
              />
              {may('POST', '/api/v1/team/verify') && (
                <button
                  type="button"
                  disabled={check.busy}
                  onClick={() =>
                    check.run(async () => {
                      setVerdict(null);
                      setVerdict(await api.call('POST', '/api/v1/team/verify'));
                      await link.reload();
                    })
                  }
                >
                  Check the witness
                </button>
              )}
              <ActionNote action={check} busy="Checking the witnessed heads against the team's chain" />
              {verdict && <WitnessVerdict verdict={verdict} />}
            </>
          )
        }
      </Show>
    </Section>
  );
}

function WitnessVerdict({ verdict: v }: { verdict: Verification }) {
  return (
    <div class={`note ${v.ok ? 'ok' : 'error'}`} role="status" aria-label="Witness check">
      <p>
        <strong>{v.ok ? 'ok' : `Finding: ${v.finding}`}</strong>: {v.checked} witnessed heads compared with the team's
        chain, {v.unchecked} older than its retention;{' '}
        {v.team_head ? `the team's signed head is seq ${v.team_head.seq}.` : 'the team signed no head.'}
      </p>
      {v.fork_at !== null && (
        <p>
          The chains part at seq <strong data-fork-at>{v.fork_at}</strong>: this machine saw{' '}
          <code>{v.witnessed_hash}</code>, the team has <code>{v.team_hash ?? 'nothing'}</code>.
        </p>
      )}
    </div>
  );
}
