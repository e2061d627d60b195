import { useState } from 'preact/hooks';
import type { Answer, Api } from '../api';
import { Choices, Form, Select, Submit } from '../components/form';
import { ActionNote } from '../components/notes';
import { Section } from '../components/section';
import { ItemsTable, Table } from '../components/table';
import { time, yesNo } from '../format';
import { useMay } from '../may';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

type FlowList = Answer<'GET', '/api/v1/automation/flows'>;
type Job = Answer<'GET', '/api/v1/automation/runs/:job_id'>;

/** How often a running job is asked about while it is watched. */
const WATCH_MS = 1_000;

/** `name=value` per line: the values of a run. */
const valuesOf = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1)]),
  );

/** Run a flow on chosen profiles and watch its job (docs/automation.md#runs). */
export function FlowRuns({ api, flows }: { api: Api; flows: FlowList['items'] }) {
  const may = useMay();
  const profiles = useLoad(() => api.call('GET', '/api/v1/profiles', { query: { limit: 100 } }), 'run-profiles');
  const jobs = useLoad(() => api.call('GET', '/api/v1/automation/runs'), 'jobs');
  const action = useAction();
  const [watched, setWatched] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const job = useLoad(
    async () => {
      if (!watched) return null;
      const answer = await api.call('GET', '/api/v1/automation/runs/:job_id', { params: { job_id: watched } });
      setRunning(answer.state === 'running');
      return answer;
    },
    watched ?? 'no-job',
    // Asked again only while it runs: an ended job does not change.
    watched && running ? WATCH_MS : undefined,
  );

  const run = (form: FormData) =>
    void action.run(async () => {
      const started = await api.call('POST', '/api/v1/automation/flows/:id/runs', {
        params: { id: String(form.get('flow')) },
        body: {
          profile_ids: form.getAll('profiles').map(String),
          values: valuesOf(String(form.get('values') ?? '')),
          headless: form.get('headless') === 'on',
          stop_after: form.get('stop_after') === 'on',
        },
      });
      setWatched(started.id);
      jobs.reload();
    });

  return (
    <Section title="Flow runs">
      {!may('POST', '/api/v1/automation/flows/:id/runs') ? null : flows.length === 0 ||
        !profiles.data ||
        profiles.data.items.length === 0 ? (
        <p class="muted">A run needs a flow and a profile.</p>
      ) : (
        <Form onSubmit={run} label="Run a flow">
          <Select label="Flow" name="flow" options={flows.map((f) => [f.id, f.name] as const)} />
          <Choices
            legend="Profiles to run it on"
            name="profiles"
            choices={profiles.data.items.map((p) => [p.id, p.name] as const)}
          />
          <label for="run-values">Values, one name=value a line</label>
          <textarea id="run-values" name="values" />
          <label>
            <input type="checkbox" name="headless" /> Start browsers without a window
          </label>
          <label>
            <input type="checkbox" name="stop_after" /> Stop the browsers it starts when done
          </label>
          <Submit label="Run flow" busy={action.busy} />
        </Form>
      )}
      <ActionNote action={action} busy="Starting the job" />
      {job.data && <Watched api={api} job={job.data} onCancelled={job.reload} />}
      <h3>Recent jobs</h3>
      <ItemsTable
        loaded={jobs}
        label="jobs"
        columns={['Started', 'Flow', 'State', 'Profiles']}
        rowKey={(j) => j.id}
        cells={(j) => [time(j.created_at), j.flow_id, j.state, j.profiles.length]}
        actions={(j) => (
          <button type="button" class="quiet" onClick={() => setWatched(j.id)}>
            Watch job {j.id}
          </button>
        )}
        empty="No job yet."
      />
    </Section>
  );
}

/** One job as it goes: each profile's state, step and error; a cancel while it runs. */
function Watched({ api, job, onCancelled }: { api: Api; job: Job; onCancelled: () => void }) {
  const cancel = useAction();
  const may = useMay();
  return (
    <div role="region" aria-label="Watched job">
      <p role="status">
        Job {job.id}: {job.state} ({job.step_count} steps
        {job.cancel_requested ? ', cancel asked' : ''})
      </p>
      <Table
        columns={['Profile', 'State', 'Step', 'Started its browser', 'Error']}
        rows={job.profiles}
        rowKey={(p) => p.profile_id}
        cells={(p) => [
          p.profile_id,
          p.state,
          p.step === null ? '' : `${p.step + 1} of ${job.step_count} (${p.step_type})`,
          yesNo(p.started_browser),
          p.error ? `${p.error.code}: ${p.error.message}` : '',
        ]}
      />
      {job.state === 'running' && !job.cancel_requested && may('POST', '/api/v1/automation/runs/:job_id/cancel') && (
        <button
          type="button"
          disabled={cancel.busy}
          onClick={() =>
            void cancel.run(async () => {
              await api.call('POST', '/api/v1/automation/runs/:job_id/cancel', { params: { job_id: job.id } });
              onCancelled();
            })
          }
        >
          Cancel job
        </button>
      )}
      <ActionNote action={cancel} busy="Cancelling" />
    </div>
  );
}
