import { z } from 'zod';
import { Id, uniqueItems } from '../../src/shared/schemas/ids';
import { itemList } from '../../src/shared/schemas/list';

/** A run request: the profiles to run the flow on, values by name, how their browsers start, whether the job stops them after. */
export const FlowRunRequest = z
  .object({
    profile_ids: uniqueItems(z.array(Id).min(1).max(100), 'Profile ids must be unique'),
    values: z
      .record(z.string().min(1).max(120), z.string().max(1_048_576))
      .optional()
      .meta({ description: 'Values by name; they come before the flow’s own values and the globals.' }),
    headless: z.boolean().default(false).meta({ description: 'How the job starts a browser that is not running.' }),
    stop_after: z
      .boolean()
      .default(false)
      .meta({ description: 'Stop each browser the job started once its profile’s run ends.' }),
  })
  .strict()
  .meta({ id: 'FlowRunRequest' });
export type FlowRunRequest = z.output<typeof FlowRunRequest>;

/** A job's life: `running` until every profile's run has ended; then how they ended. */
export const FlowJobState = z.enum(['running', 'succeeded', 'failed', 'cancelled']);
export type FlowJobState = z.output<typeof FlowJobState>;

/** One profile's run in a job: `queued`, `starting` its browser, `running` its steps, then how it ended. */
export const FlowJobProfileState = z.enum(['queued', 'starting', 'running', 'succeeded', 'failed', 'cancelled']);
export type FlowJobProfileState = z.output<typeof FlowJobProfileState>;

/** Why a profile's run failed: an error code, a message (secrets never in it), and the step it failed on (null before the first). */
export const FlowJobError = z
  .object({
    code: z.string(),
    message: z.string(),
    step: z.int().nullable(),
    step_type: z.string().nullable(),
    flow_id: z.string().nullable().meta({ description: 'The flow the failed step belongs to.' }),
  })
  .meta({ id: 'FlowJobError' });
export type FlowJobError = z.output<typeof FlowJobError>;

export const FlowJobProfile = z.object({
  profile_id: z.string(),
  state: FlowJobProfileState,
  step: z
    .int()
    .nullable()
    .meta({ description: 'The index in the job’s steps of the step running now, or the last one run.' }),
  step_type: z.string().nullable(),
  run_id: z.string().nullable().meta({ description: 'The browser run the steps ran on.' }),
  started_browser: z.boolean().meta({ description: 'Whether the job started this browser.' }),
  error: FlowJobError.nullable(),
  started_at: z.int().nullable(),
  ended_at: z.int().nullable(),
});
export type FlowJobProfile = z.output<typeof FlowJobProfile>;

/** A flow run on some profiles (docs/automation.md#runs): never a value or a secret in it. */
export const FlowJob = z
  .object({
    id: z.string(),
    flow_id: z.string(),
    state: FlowJobState,
    headless: z.boolean(),
    stop_after: z.boolean(),
    step_count: z.int().meta({ description: 'The steps each profile runs: dependencies first, `run_flow` expanded.' }),
    cancel_requested: z.boolean(),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why the job ended as a whole, when it did not end by its profiles.' }),
    created_at: z.int(),
    ended_at: z.int().nullable(),
    profiles: z.array(FlowJobProfile),
  })
  .meta({ id: 'FlowJob' });
export type FlowJob = z.output<typeof FlowJob>;

export const FlowJobList = itemList(FlowJob, 'FlowJobList');

export const JobParams = z.object({ job_id: Id });
