import type { Input } from './api';
import { fieldText as text } from './field-text';

/** The profile and account forms as the API's bodies: blank optional text is null, tags a unique list. */
export type ProfileBody = Required<Input<'POST', '/api/v1/profiles'>['body']>;
type AccountBody = Input<'POST', '/api/v1/profiles/:id/accounts'>['body'];

const orNull = (value: string) => (value === '' ? null : value);

/** A field's items, split at `separator`, trimmed, the empty ones left out. */
const items = (form: FormData, name: string, separator: string | RegExp) =>
  text(form, name)
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);

/** The browser settings of the form (docs/runs.md#browser-settings): an empty field is the browser's own. */
function browserBody(form: FormData): Required<ProfileBody['browser']> {
  const [width, height] = [text(form, 'window_width'), text(form, 'window_height')];
  const languages = items(form, 'languages', ',');
  return {
    headless: form.get('headless') === 'on',
    window: width && height ? { width: Number(width), height: Number(height) } : null,
    start_urls: items(form, 'start_urls', /\n/),
    user_agent: orNull(text(form, 'user_agent')),
    languages: languages.length > 0 ? languages : null,
    timezone: orNull(text(form, 'timezone')),
    args: items(form, 'args', /\n/),
  };
}

export function profileBody(form: FormData): ProfileBody {
  return {
    name: text(form, 'name'),
    group: orNull(text(form, 'group')),
    tags: [...new Set(items(form, 'tags', ','))],
    pinned: form.get('pinned') === 'on',
    notes: orNull(text(form, 'notes')),
    browser: browserBody(form),
  };
}

/** A new platform account: a secret left blank is not set (it is never sent as an empty string). */
export function accountBody(form: FormData): AccountBody {
  const body: AccountBody = {
    platform_url: text(form, 'platform_url'),
    username: orNull(text(form, 'username')),
    notes: orNull(text(form, 'notes')),
  };
  // Secrets keep their spaces: only an empty field means "none".
  for (const secret of ['password', 'totp_secret'] as const) {
    const value = String(form.get(secret) ?? '');
    if (value !== '') body[secret] = value;
  }
  return body;
}
