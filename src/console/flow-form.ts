import type { Answer, Input } from './api';
import { fieldText } from './field-text';

type NewFlow = Input<'POST', '/api/v1/automation/flows'>['body'];
type FlowValue = NonNullable<NewFlow['values']>[number];
type Flow = Answer<'GET', '/api/v1/automation/flows/:id'>;

/**
 * `name=value` lines as flow values. A line without `=` names a value with none (the run supplies
 * it); a protected one is then sent without `value`, which on an edit keeps the secret stored under
 * that name (docs/automation.md#editing-a-flow), since the form never holds it.
 */
function valueLines(text: string, isProtected: boolean): FlowValue[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('=');
      const name = (at < 0 ? line : line.slice(0, at)).trim();
      if (at >= 0) return { name, value: line.slice(at + 1), protected: isProtected };
      return isProtected ? { name, protected: true } : { name, value: null, protected: false };
    });
}

/**
 * The flow form as the API's body, for a new flow and for an edit alike: its steps are a JSON array
 * (what a step holds is the runner's business, docs/spec.md), its values `name=value` lines, plain
 * and protected apart. Steps that are not a JSON array are refused here, with where the JSON broke.
 */
export function flowBody(form: FormData): NewFlow {
  const steps: unknown = JSON.parse(fieldText(form, 'steps') || '[]');
  if (!Array.isArray(steps)) throw new Error('Steps must be a JSON array of step objects.');
  const group = fieldText(form, 'group');
  const description = fieldText(form, 'description');
  return {
    name: fieldText(form, 'name'),
    group: group === '' ? null : group,
    description: description === '' ? null : description,
    is_template: form.get('is_template') === 'on',
    steps: steps as NewFlow['steps'],
    values: [
      ...valueLines(String(form.get('values') ?? ''), false),
      ...valueLines(String(form.get('protected_values') ?? ''), true),
    ],
  };
}

/** A stored flow as the form's fields: a protected value by its name alone, as the API never shows it. */
export function flowFields(flow: Flow) {
  const lines = (values: Flow['values']) => values.map((v) => (v.value === null ? v.name : `${v.name}=${v.value}`));
  return {
    name: flow.name,
    group: flow.group ?? '',
    description: flow.description ?? '',
    is_template: flow.is_template,
    steps: JSON.stringify(flow.steps, null, 2),
    values: lines(flow.values.filter((v) => !v.protected)).join('\n'),
    protected_values: lines(flow.values.filter((v) => v.protected)).join('\n'),
  };
}
