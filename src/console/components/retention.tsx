import { Form, Submit } from './form';
import { ActionNote } from './notes';
import { useAction } from '../use-action';

interface Days<F extends string> {
  name: F;
  label: string;
  /** The days kept now. */
  value: number;
}

/**
 * How many days something is kept, as number fields holding the current values: saved by a token that
 * may change them (`allowed`), shown read-only to one that may not. The bounds are the API's: a value
 * out of them is refused with its validation error, shown under the form.
 */
export function RetentionForm<F extends string>({
  label,
  fields,
  allowed,
  save,
}: {
  label: string;
  fields: readonly Days<F>[];
  allowed: boolean;
  save: (days: Record<F, number>) => Promise<unknown>;
}) {
  const action = useAction();
  return (
    <>
      <Form
        class="inline"
        label={label}
        onSubmit={(form) =>
          void action.run(async () => {
            await save(Object.fromEntries(fields.map((f) => [f.name, Number(form.get(f.name))])) as Record<F, number>);
          })
        }
      >
        {fields.map((f) => (
          // Keyed by the value too: a saved value (or another client's) replaces what the field holds.
          <label key={`${f.name}-${f.value}`}>
            {f.label} (days)
            <input
              name={f.name}
              type="number"
              required
              readOnly={!allowed}
              inputMode="numeric"
              defaultValue={String(f.value)}
            />
          </label>
        ))}
        {allowed && <Submit label={`Save ${label.toLowerCase()}`} busy={action.busy} />}
      </Form>
      <ActionNote action={action} busy="Saving the retention" />
    </>
  );
}
