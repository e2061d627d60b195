import type { Command } from 'commander';
import type { FlowJob } from '../../../storage/flow-runs/schema';
import type { FlowPatch, NewFlow } from '../../../storage/flows/schema';
import { flowRuns } from '../../contracts/flow-runs';
import { flows as flowRoutes } from '../../contracts/flows';
import { action, readJson, repeated, withJson, type JsonOption } from '../args';
import type { ApiClient } from '../client';
import { EXIT } from '../exit-codes';
import { keyValues, show, table } from '../output';

/** How often `--wait` asks about the job. */
const WAIT_POLL_MS = 500;

/** A job as a table of its profiles: each one's state, step and error. */
const jobTable = (job: FlowJob) =>
  `job ${job.id}: ${job.state} (${job.step_count} steps)\n${table(
    job.profiles.map((profile) => ({
      profile_id: profile.profile_id,
      state: profile.state,
      step: profile.step === null ? '' : `${profile.step} ${profile.step_type}`,
      error: profile.error ? `${profile.error.code}: ${profile.error.message}` : '',
    })),
    ['profile_id', 'state', 'step', 'error'],
  )}`;

/** The job once it has ended, asked every WAIT_POLL_MS. */
async function ended(client: ApiClient, job: FlowJob): Promise<FlowJob> {
  let current = job;
  while (current.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    current = await client.api(flowRuns.read, { params: { job_id: job.id } });
  }
  return current;
}

/** `--value name=text`, repeated: the run's values. */
function valuesOf(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--value takes name=text, not ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

export function flowsCommand(flows: Command): void {
  withJson(flows.command('list').description('flow summaries, oldest first')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(flowRoutes.list);
      show(answer, options.json, (a) =>
        table(a.items, ['id', 'name', 'group', 'is_template', 'step_count', 'value_count', 'dependencies']),
      );
    }),
  );
  withJson(
    flows.command('get').description('one flow with its steps and values (protected values as null)').argument('<id>'),
  ).action(
    action(async (client, id: string, options: JsonOption) => {
      show(await client.api(flowRoutes.read, { params: { id } }), options.json, keyValues);
    }),
  );
  // A flow's steps (docs/automation.md#steps) come as the API's body, from a file.
  withJson(
    flows
      .command('create')
      .description('create a flow from a JSON file holding the request body (name, steps, values…)')
      .requiredOption('--file <path>', 'the flow as JSON ("-" for standard input)'),
  ).action(
    action(async (client, options: JsonOption & { file: string }) => {
      const body = readJson<NewFlow>(options.file);
      show(await client.api(flowRoutes.create, { body }), options.json, (a) => `created ${a.id} (${a.name})`);
    }),
  );
  withJson(
    flows
      .command('update')
      .description(
        'change a flow from a JSON file holding the fields to change; a protected value given without a value keeps its secret',
      )
      .argument('<id>')
      .requiredOption('--file <path>', 'the fields as JSON ("-" for standard input)'),
  ).action(
    action(async (client, id: string, options: JsonOption & { file: string }) => {
      const body = readJson<FlowPatch>(options.file);
      show(
        await client.api(flowRoutes.update, { params: { id }, body }),
        options.json,
        (a) => `updated ${a.id} (${a.name})`,
      );
    }),
  );
  withJson(flows.command('delete').description('delete a flow that no other flow depends on').argument('<id>')).action(
    action(async (client, id: string, options: JsonOption) => {
      await client.api(flowRoutes.delete, { params: { id } });
      show({ ok: true }, options.json, () => `deleted ${id}`);
    }),
  );
  withJson(
    flows
      .command('run')
      .description('run a flow on profiles (started if they are not running); prints the job')
      .argument('<id>')
      .requiredOption('--profile <id>', 'a profile to run it on (repeat for more, up to 100)', repeated)
      .option('--value <name=text>', 'a value of the run (repeat for more)', repeated)
      .option('--headless', 'start the browsers it starts without a window')
      .option('--stop-after', 'stop the browsers it started once their run ends')
      .option('--wait', 'wait for the job to end; exit 1 unless it succeeded'),
  ).action(
    action(
      async (
        client,
        id: string,
        options: JsonOption & {
          profile: string[];
          value?: string[];
          headless?: boolean;
          stopAfter?: boolean;
          wait?: boolean;
        },
      ) => {
        const body = {
          profile_ids: options.profile,
          values: valuesOf(options.value ?? []),
          headless: options.headless,
          stop_after: options.stopAfter,
        };
        const started = await client.api(flowRuns.run, { params: { id }, body });
        const job = options.wait ? await ended(client, started) : started;
        show(job, options.json, jobTable);
        if (options.wait && job.state !== 'succeeded') process.exitCode = EXIT.failed;
      },
    ),
  );
  withJson(flows.command('jobs').description('flow jobs, newest first')).action(
    action(async (client, options: JsonOption) => {
      const answer = await client.api(flowRuns.list);
      show(answer, options.json, (a) =>
        table(
          a.items.map((job) => ({ ...job, profiles: job.profiles.length })),
          ['id', 'flow_id', 'state', 'profiles', 'step_count', 'created_at'],
        ),
      );
    }),
  );
  withJson(
    flows.command('job').description("a flow job: each profile's state, step and error").argument('<job_id>'),
  ).action(
    action(async (client, jobId: string, options: JsonOption) => {
      show(await client.api(flowRuns.read, { params: { job_id: jobId } }), options.json, jobTable);
    }),
  );
  withJson(flows.command('cancel').description('stop a running flow job').argument('<job_id>')).action(
    action(async (client, jobId: string, options: JsonOption) => {
      show(await client.api(flowRuns.cancel, { params: { job_id: jobId } }), options.json, jobTable);
    }),
  );
}
