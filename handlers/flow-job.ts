import type { PageStep } from '../src/shared/schemas/flow-steps';
import { fromBase64 } from '../src/shared/base64';
import { ApiError } from '../src/shared/errors/api-error';
import { fileNameProblem } from '../src/shared/file-name';
import type { LogRecord } from '../src/shared/logs/line';
import { REDACTED } from '../src/shared/logs/sanitize';
import { RunStart } from '../src/shared/schemas/run';
import { perStore } from '../src/shared/store-memory';
import type { AuditContext } from '../storage/audit/entry';
import type { FlowJob, FlowJobError, FlowRunRequest } from '../storage/flow-runs/schema';
import type { RequestContext } from './context';
import { FlowValues, type PlannedStep, planRun } from './flow-plan';
import { liveRuns, startOne, stopOne } from './runs';

/** How many profiles of a job run at once: enough for a batch, few enough not to swamp two cores. */
const PROFILES_AT_ONCE = 5;
/** How long a `wait` for a selector waits when the step does not say. */
const SELECTOR_WAIT_MS = 30_000;
/** How often an `extract` tries again when another writer changed the global between its read and its write. */
const EXTRACT_TRIES = 5;

/** The running jobs of a store, each with what cancels it: a cancel cuts a timed wait short. */
const runningJobs = perStore(() => new Map<string, AbortController>());

/** A step that failed: its message, with any secret of the step taken out. */
class StepFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `text` with each secret replaced, so that a browser's or a page's error never carries one into the job or a log. */
const redacted = (text: string, secrets: readonly string[]) =>
  secrets.reduce((out, secret) => (secret === '' ? out : out.split(secret).join(REDACTED)), text);

/** The job's progress to the `jobs` log stream: ids, states, step types and error codes, never a step's parameters. */
function logJob(ctx: Pick<RequestContext, 'host'>, records: Omit<LogRecord, 'ts'>[]): void {
  const ts = Date.now();
  void ctx.host.logs
    .append(
      'jobs',
      records.map((record) => ({ ts, ...record })),
    )
    .catch((error: unknown) => console.error('jobs log write failed:', String(error)));
}

/** A timed wait that a cancel cuts short. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cancelled);
      resolve();
    }, ms);
    const cancelled = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', cancelled, { once: true });
  });
}

/**
 * Starts a flow run (docs/automation.md#runs): everything that can refuse it is checked first (the
 * flow, the vocabulary of its steps and of those it runs, cycles, values, the browser, busy profiles),
 * then the job is recorded and answered while its profiles run in the background of this store's object.
 */
export async function startJob(
  ctx: RequestContext,
  audit: AuditContext,
  flowId: string,
  request: FlowRunRequest,
): Promise<FlowJob> {
  const globals = new Set((await ctx.store.globals.list()).map((global) => global.name));
  const values = new FlowValues(ctx, audit, request.values ?? {}, globals);
  const plan = await planRun(ctx, flowId, values);
  const browser = await ctx.host.runs.browser();
  if (!browser.found) throw new ApiError('run.browser_missing', { problem: browser.problem });
  const job = await ctx.store.flowRuns.begin(audit, {
    id: crypto.randomUUID(),
    flow_id: flowId,
    headless: request.headless,
    stop_after: request.stop_after,
    step_count: plan.length,
    profile_ids: request.profile_ids,
  });
  const cancel = new AbortController();
  runningJobs.of(ctx.memory).set(job.id, cancel);
  logJob(ctx, [
    {
      level: 'info',
      message: 'flow job started',
      fields: { job_id: job.id, flow_id: flowId, profiles: job.profiles.length, steps: plan.length },
    },
  ]);
  void runJob(ctx, audit, job, plan, values, cancel.signal)
    .catch((error: unknown) => console.error(`flow job ${job.id} failed:`, error))
    .finally(() => runningJobs.of(ctx.memory).delete(job.id));
  return job;
}

/** Asks a running job to stop: recorded (and audited), and its waits cut short at once. */
export async function cancelJob(ctx: RequestContext, audit: AuditContext, jobId: string): Promise<FlowJob> {
  const job = await ctx.store.flowRuns.cancel(audit, jobId);
  runningJobs.of(ctx.memory).get(jobId)?.abort(new StepFailure('flows.cancelled', 'the job was cancelled'));
  logJob(ctx, [{ level: 'info', message: 'flow job cancel asked', fields: { job_id: jobId } }]);
  return job;
}

async function runJob(
  ctx: RequestContext,
  audit: AuditContext,
  job: FlowJob,
  plan: readonly PlannedStep[],
  values: FlowValues,
  signal: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < job.profiles.length) {
      const position = next++;
      await runProfile(ctx, audit, job, position, plan, values, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROFILES_AT_ONCE, job.profiles.length) }, worker));
  const ended = await ctx.store.flowRuns.finish(job.id);
  logJob(ctx, [
    {
      level: ended.state === 'succeeded' ? 'info' : 'warn',
      message: `flow job ${ended.state}`,
      fields: {
        job_id: job.id,
        succeeded: ended.profiles.filter((profile) => profile.state === 'succeeded').length,
        failed: ended.profiles.filter((profile) => profile.state === 'failed').length,
        cancelled: ended.profiles.filter((profile) => profile.state === 'cancelled').length,
      },
    },
  ]);
}

/** One profile's run: its browser (started if it is not running), each step in turn, its outcome audited. */
async function runProfile(
  ctx: RequestContext,
  audit: AuditContext,
  job: FlowJob,
  position: number,
  plan: readonly PlannedStep[],
  values: FlowValues,
  signal: AbortSignal,
): Promise<void> {
  const profileId = job.profiles[position]!.profile_id;
  const progress = (fields: Parameters<RequestContext['store']['flowRuns']['progress']>[2]) =>
    ctx.store.flowRuns.progress(job.id, position, fields);
  let at: number | null = null;
  let started = false;
  const end = async (state: 'succeeded' | 'failed' | 'cancelled', error: FlowJobError | null) => {
    await ctx.store.flowRuns.profileEnded(
      { ...audit, action: 'flow_runs.profile_end' },
      job.id,
      position,
      state,
      error,
    );
    logJob(ctx, [
      {
        level: state === 'failed' ? 'warn' : 'info',
        message: `flow job profile ${state}`,
        fields: { job_id: job.id, profile_id: profileId, step: at, error: error?.code ?? null },
      },
    ]);
  };
  try {
    if (signal.aborted) return await end('cancelled', null);
    await progress({ state: 'starting', started_at: Date.now() });
    const live = (await liveRuns(ctx)).find((run) => run.profile_id === profileId && run.state === 'running');
    const runId = live
      ? live.id
      : (await startOne(ctx, { ...audit, action: 'runs.start' }, profileId, RunStart.parse({ headless: job.headless })))
          .id;
    started = !live;
    await progress({ state: 'running', run_id: runId, started_browser: started });
    logJob(ctx, [
      {
        level: 'info',
        message: 'flow job profile running',
        fields: { job_id: job.id, profile_id: profileId, run_id: runId, started_browser: started },
      },
    ]);
    for (const [index, planned] of plan.entries()) {
      if (signal.aborted) return await end('cancelled', null);
      at = index;
      await progress({ step: index, step_type: planned.step.type });
      await runStep(ctx, audit, profileId, runId, planned, values, signal);
    }
    await end('succeeded', null);
  } catch (thrown) {
    if (signal.aborted) return await end('cancelled', null);
    const step = at === null ? null : plan[at]!;
    const error =
      thrown instanceof StepFailure || thrown instanceof ApiError
        ? { code: thrown.code, message: thrown.message }
        : { code: 'flows.step_failed', message: String(thrown) };
    await end('failed', {
      ...error,
      message: error.message.slice(0, 1000),
      step: at,
      step_type: step?.step.type ?? null,
      flow_id: step?.flow.id ?? null,
    });
  } finally {
    if (job.stop_after && started)
      await stopOne(ctx, { ...audit, action: 'runs.stop' }, profileId, false).catch((error: unknown) =>
        console.error(`flow job ${job.id}: the browser of ${profileId} did not stop:`, String(error)),
      );
  }
}

/** One step on one profile: its values resolved now, a secret read now, and handed to this step alone. */
async function runStep(
  ctx: RequestContext,
  audit: AuditContext,
  profileId: string,
  runId: string,
  { flow, step: stored }: PlannedStep,
  values: FlowValues,
  signal: AbortSignal,
): Promise<void> {
  const { step, secrets } = await values.resolve(flow, stored);
  const onPage = async (pageStep: PageStep) => {
    const result = await ctx.host.runs.step(runId, pageStep);
    if (!result.ok) throw new StepFailure('flows.step_failed', redacted(result.error, secrets));
    return result.value;
  };
  switch (step.type) {
    case 'wait':
      if (step.selector !== undefined)
        return void (await onPage({
          type: 'wait',
          selector: step.selector,
          timeout_ms: step.timeout_ms ?? SELECTOR_WAIT_MS,
        }));
      return pause(step.ms ?? step.min_ms! + Math.random() * (step.max_ms! - step.min_ms!), signal);
    case 'fill_password':
    case 'fill_totp': {
      const read = {
        ...audit,
        action: `profile_accounts.${step.type === 'fill_password' ? 'password' : 'totp'}_read` as const,
      };
      const text =
        step.type === 'fill_password'
          ? (await ctx.store.profileAccounts.password(read, profileId, step.profile_account_id)).password
          : (await ctx.store.profileAccounts.totp(read, profileId, step.profile_account_id)).code;
      secrets.push(text);
      return void (await onPage({ type: 'type', selector: step.selector, text }));
    }
    case 'extract': {
      const value = (await onPage({ type: 'extract', selector: step.selector, attribute: step.attribute }))!;
      return writeGlobal(ctx, audit, step.global, value);
    }
    case 'screenshot': {
      const problem = fileNameProblem(step.file);
      if (problem) throw new StepFailure('request.invalid', `A file name ${problem}`);
      const bytes = fromBase64((await onPage({ type: 'screenshot' }))!);
      if ((await ctx.host.files.write(step.file, bytes)) === 'exists')
        throw new ApiError('files.exists', { name: step.file });
      return ctx.store.system.record(
        { ...audit, action: 'files.write' },
        'ok',
        { entity_type: 'file', entity_id: step.file, details: { size_bytes: bytes.length } },
        null,
      );
    }
    default:
      return void (await onPage(step));
  }
}

/** An extract's value into the global at the revision it has now; another writer in between makes it read again. */
async function writeGlobal(ctx: RequestContext, audit: AuditContext, name: string, value: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = (await ctx.store.globals.list()).find((global) => global.name === name)?.revision ?? 0;
    try {
      await ctx.store.globals.write({ ...audit, action: 'globals.write' }, name, { value, expected_revision: current });
      return;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'state.revision_conflict') || attempt >= EXTRACT_TRIES)
        throw error;
    }
  }
}
