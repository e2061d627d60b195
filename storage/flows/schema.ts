import { z } from 'zod';
import { Id, uniqueItems } from '../../src/shared/schemas/ids';
import { itemList } from '../../src/shared/schemas/list';
import { DEFAULT_BODY_LIMIT } from '../../src/shared/body-limit';
import { FlowStep } from '../../src/shared/schemas/flow-steps';

/** The name of a flow, of its group or of one of its values. */
const Label = z.string().min(1).max(120);

export const FlowValueInput = z
  // A value has no bound of its own in the spec: the body limit is its bound, stated so that the document shows one.
  .object({
    name: Label,
    value: z.string().max(DEFAULT_BODY_LIMIT).nullable().optional(),
    protected: z.boolean().optional(),
  })
  .strict();
export type FlowValueInput = z.output<typeof FlowValueInput>;

export const NewFlow = z
  .object({
    name: Label,
    group: Label.nullable().optional(),
    description: z.string().max(4000).nullable().optional(),
    is_template: z.boolean().optional(),
    dependencies: uniqueItems(z.array(Id).max(1000), 'Dependencies must be unique').optional(),
    steps: z.array(FlowStep).max(10_000),
    values: uniqueItems(z.array(FlowValueInput).max(1000), 'Value names must be unique', (v) => v.name)
      .meta({ description: 'No two values with the same name.' })
      .optional(),
  })
  .strict()
  .meta({ id: 'NewFlow' });
export type NewFlow = z.output<typeof NewFlow>;

/**
 * An edit: the fields of a new flow, each optional, at least one. `steps`, `values` and
 * `dependencies` replace the whole list; a value sent without `value` keeps the one stored under its
 * name (a protected one its sealed secret), `value: null` removes it (docs/automation.md#editing-a-flow).
 */
export const FlowPatch = NewFlow.partial()
  .refine((patch) => Object.keys(patch).length > 0, 'Give at least one field to change')
  .meta({ id: 'FlowPatch', minProperties: 1 });
export type FlowPatch = z.output<typeof FlowPatch>;

const flowFields = {
  id: z.string(),
  name: z.string(),
  group: z.string().nullable(),
  description: z.string().nullable(),
  is_template: z.boolean(),
  dependencies: z.array(z.string()),
  created_at: z.int(),
  updated_at: z.int(),
};

export const FlowSummary = z
  .object({ ...flowFields, step_count: z.int(), value_count: z.int() })
  .meta({ id: 'FlowSummary' });
export type FlowSummary = z.output<typeof FlowSummary>;

export const FlowList = itemList(FlowSummary, 'FlowList');

/** A value as a share bundle carries it: a protected value in plaintext, or null when the share left it out. */
const BundledFlowValue = z.object({ name: z.string(), value: z.string().nullable(), protected: z.boolean() });

/** A value as a reader sees it: a protected value shows `value: null` and only whether one is set. */
const FlowValue = BundledFlowValue.extend({
  value: z.string().nullable().meta({ description: 'Always null for a protected value: those are never shown.' }),
  value_set: z.boolean(),
});

export const Flow = z
  .object({ ...flowFields, steps: z.array(FlowStep), values: z.array(FlowValue) })
  .meta({ id: 'Flow' });
export type Flow = z.output<typeof Flow>;

/** A flow as a share bundle carries it: no timestamps, its values as `BundledFlowValue`. */
export const BundledFlow = Flow.omit({ created_at: true, updated_at: true }).extend({
  values: z.array(BundledFlowValue),
});
export type BundledFlow = z.output<typeof BundledFlow>;
