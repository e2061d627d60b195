/** A form field's text, trimmed; '' when the field is absent. */
export const fieldText = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
