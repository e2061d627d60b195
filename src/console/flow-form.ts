import type { Input } from './api';
import { fieldText } from './field-text';

type NewFlow = Input<'POST', '/api/v1/automation/flows'>['body'];
type FlowValue = NonNullable<NewFlow['values']>[number];

/** `name=value` lines as flow values; a line without `=` names a value with none (the run supplies it). */
function valueLines(text: string, isProtected: boolean): FlowValue[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('=');
      const name = (at < 0 ? line : line.slice(0, at)).trim();
      return { name, value: at < 0 ? null : line.slice(at + 1), protected: isProtected };
    });
}

/**
 * The new-flow form as the API's body: its steps are a JSON array (what a step holds is the runner's
 * business, docs/spec.md), its values `name=value` lines, plain and protected apart. Steps that are
 * not a JSON array are refused here, with where the JSON broke.
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
