import type { ComponentChildren } from 'preact';

/** A form whose submission stays in the page: `onSubmit` gets its fields and the form (to reset it). */
export function Form({
  label,
  class: className,
  role,
  onSubmit,
  children,
}: {
  label?: string;
  class?: string;
  role?: 'search';
  onSubmit: (fields: FormData, form: HTMLFormElement) => void;
  children: ComponentChildren;
}) {
  return (
    <form
      class={className}
      role={role}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        onSubmit(new FormData(form), form);
      }}
    >
      {children}
    </form>
  );
}

/** A form's submit button, disabled while its action runs; `children` are the buttons beside it. */
export function Submit({ label, busy, children }: { label: string; busy: boolean; children?: ComponentChildren }) {
  return (
    <div class="actions">
      <button type="submit" disabled={busy}>
        {label}
      </button>
      {children}
    </div>
  );
}

/** Checkboxes of one name, one per choice, under a legend. */
export function Choices({
  legend,
  name,
  choices,
}: {
  legend: string;
  name: string;
  choices: readonly (readonly [value: string, label: string])[];
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div class="choices">
        {choices.map(([value, label]) => (
          <label key={value}>
            <input type="checkbox" name={name} value={value} /> {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A labelled choice of one; `blank`, when given, is a first choice of the empty value. */
export function Select({
  label,
  options,
  blank,
  name,
  value,
  onChange,
}: {
  label: string;
  options: readonly (string | readonly [value: string, label: string])[];
  blank?: string;
  name?: string;
  value?: string;
  onChange?: (value: string) => void;
}) {
  return (
    <label>
      {label}{' '}
      <select
        name={name}
        value={value}
        onChange={onChange && ((event) => onChange((event.currentTarget as HTMLSelectElement).value))}
      >
        {blank !== undefined && <option value="">{blank}</option>}
        {options.map((option) =>
          typeof option === 'string' ? (
            <option key={option}>{option}</option>
          ) : (
            <option key={option[0]} value={option[0]}>
              {option[1]}
            </option>
          ),
        )}
      </select>
    </label>
  );
}
