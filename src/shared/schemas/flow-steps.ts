import { z } from 'zod';
import { GlobalName } from './global-name';
import { Id } from './ids';

/**
 * The step vocabulary of a flow (docs/automation.md#steps): each step is `{ type, …parameters }`,
 * refused when the flow is saved if its type is unknown or a parameter is malformed. `${name}` in a
 * string parameter is a value, resolved when the step runs (the request's values, then the flow's,
 * then the globals); `global` takes none, since it names where a value goes.
 */

/** A string parameter; `${name}` in it is a value. */
const Text = z.string().max(1_000_000);
const Selector = z.string().min(1).max(4_000).meta({ description: 'A CSS selector.' });
const Ms = z.int().min(0).max(3_600_000);

const stepType = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z
    .object({ type: z.literal(type), ...shape })
    .strict()
    .meta({ description });

export const OpenUrlStep = stepType('open_url', { url: Text.min(1) }, 'Loads `url` in the current tab.');
export const NewTabStep = stepType(
  'new_tab',
  { url: Text.min(1).optional() },
  'Opens a tab (loading `url`, if given) and makes it current.',
);
export const CloseTabStep = stepType('close_tab', {}, 'Closes the current tab; the first tab left becomes current.');
export const SwitchTabStep = stepType(
  'switch_tab',
  { index: z.int().min(0).max(1_000) },
  'Makes the tab at `index` (0 is the first, in the order the browser lists them) current.',
);
export const ClickStep = stepType('click', { selector: Selector }, 'Clicks the element, once it is there and visible.');
export const TypeStep = stepType('type', { selector: Selector, text: Text }, 'Fills the field with `text`.');
export const SelectStep = stepType(
  'select',
  { selector: Selector, value: Text },
  'Chooses the option of a `<select>` by its value.',
);
export const PressStep = stepType(
  'press',
  { key: z.string().min(1).max(64) },
  'Presses a key of the focused element, by its DOM name (`Enter`, `Tab`, `a`).',
);
export const ScrollStep = stepType(
  'scroll',
  { selector: Selector.optional(), x: z.number().optional(), y: z.number().optional() },
  'Scrolls the element into view, or the page by `x`, `y` pixels.',
);
export const WaitStep = stepType(
  'wait',
  {
    ms: Ms.optional(),
    min_ms: Ms.optional(),
    max_ms: Ms.optional(),
    selector: Selector.optional(),
    timeout_ms: Ms.min(1).optional(),
  },
  'Waits `ms`, a random time in `min_ms`..`max_ms`, or until `selector` is there (at most `timeout_ms`, 30 s by default). Exactly one of the three forms.',
).superRefine((wait, check) => {
  const forms = [
    wait.ms !== undefined,
    wait.min_ms !== undefined || wait.max_ms !== undefined,
    wait.selector !== undefined,
  ];
  if (forms.filter(Boolean).length !== 1)
    check.addIssue({ code: 'custom', message: 'A wait is one of {ms}, {min_ms, max_ms} or {selector, timeout_ms?}' });
  if ((wait.min_ms === undefined) !== (wait.max_ms === undefined) || (wait.min_ms ?? 0) > (wait.max_ms ?? 0))
    check.addIssue({ code: 'custom', message: 'A random wait needs min_ms ≤ max_ms' });
  if (wait.timeout_ms !== undefined && wait.selector === undefined)
    check.addIssue({ code: 'custom', message: 'timeout_ms goes with selector' });
});
export const ExtractStep = stepType(
  'extract',
  { selector: Selector, attribute: z.string().min(1).max(200).optional(), global: GlobalName },
  "Writes the element's text (or its `attribute`) into the global, at its current revision.",
);
export const ScreenshotStep = stepType(
  'screenshot',
  { file: z.string().min(1).max(200) },
  'Saves a PNG of the current tab as a new automation file (a plain file name; an existing one is an error).',
);
export const RunFlowStep = stepType(
  'run_flow',
  { flow_id: Id },
  "Runs another flow's steps here, with that flow's own values; a cycle is refused before the run starts.",
);
export const FillPasswordStep = stepType(
  'fill_password',
  { selector: Selector, profile_account_id: Id },
  'Fills the field with the password of a platform account of the profile the step runs on; nobody sees it.',
);
export const FillTotpStep = stepType(
  'fill_totp',
  { selector: Selector, profile_account_id: Id },
  'Fills the field with the current 2FA code of a platform account of the profile the step runs on.',
);

export const FlowStep = z
  .discriminatedUnion('type', [
    OpenUrlStep,
    NewTabStep,
    CloseTabStep,
    SwitchTabStep,
    ClickStep,
    TypeStep,
    SelectStep,
    PressStep,
    ScrollStep,
    WaitStep,
    ExtractStep,
    ScreenshotStep,
    RunFlowStep,
    FillPasswordStep,
    FillTotpStep,
  ])
  .meta({ id: 'FlowStep' });
export type FlowStep = z.output<typeof FlowStep>;
export type FlowStepType = FlowStep['type'];

/**
 * What the host does on a run's page (src/host/node/browsers/flow-steps.ts): a step with its values
 * resolved. A secret reaches it only as the `text` of a `type`; a timed wait, `run_flow` and the
 * secrets' own steps are the job's, not the page's.
 */
export const PageStep = z.discriminatedUnion('type', [
  OpenUrlStep,
  NewTabStep,
  CloseTabStep,
  SwitchTabStep,
  ClickStep,
  TypeStep,
  SelectStep,
  PressStep,
  ScrollStep,
  stepType('wait', { selector: Selector, timeout_ms: Ms.min(1) }, 'Waits until `selector` is there.'),
  ExtractStep.omit({ global: true }),
  ScreenshotStep.omit({ file: true }),
]);
export type PageStep = z.output<typeof PageStep>;

/** `${name}` in a string parameter. */
const REFERENCE = /\$\{([^${}]{1,120})\}/g;

/** The names a step's string parameters refer to, in order, each once. */
export function referencedNames(step: FlowStep): string[] {
  const names = new Set<string>();
  for (const [key, value] of Object.entries(step))
    if (key !== 'type' && key !== 'global' && typeof value === 'string')
      for (const match of value.matchAll(REFERENCE)) names.add(match[1]!);
  return [...names];
}

/** The step with each `${name}` of its string parameters replaced by `lookup(name)`. */
export function resolveStep<S extends FlowStep>(step: S, lookup: (name: string) => string): S {
  return Object.fromEntries(
    Object.entries(step).map(([key, value]) => [
      key,
      key !== 'type' && key !== 'global' && typeof value === 'string'
        ? value.replace(REFERENCE, (_, name: string) => lookup(name))
        : value,
    ]),
  ) as S;
}
