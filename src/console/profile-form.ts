import type { Input } from './api';
import { fieldText as text } from './field-text';

/** The profile and account forms as the API's bodies: blank optional text is null, tags a unique list. */
export type ProfileBody = Required<Omit<Input<'POST', '/api/v1/profiles'>['body'], 'proxy'>>;
type AccountBody = Input<'POST', '/api/v1/profiles/:id/accounts'>['body'];
type ProxyBody = NonNullable<NonNullable<Input<'PATCH', '/api/v1/profiles/:id'>['body']>['proxy']>;

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

/**
 * A platform account's form as its create or change body: a secret left blank is not sent (so it is
 * not set, or kept; never an empty string), and a ticked "remove" sends null, which removes it.
 */
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
    if (form.get(`remove_${secret}`) === 'on') body[secret] = null;
  }
  return body;
}

/**
 * A profile's proxy form as the change's `proxy`: null when its type is "none". The password is
 * write-only: left blank it is not sent, so the stored one stays; "remove password" sends null.
 */
export function proxyBody(form: FormData): ProxyBody | null {
  const type = text(form, 'proxy_type');
  if (type === '') return null;
  const body: ProxyBody = {
    type: type as ProxyBody['type'],
    host: text(form, 'proxy_host'),
    port: Number(text(form, 'proxy_port')),
    username: orNull(text(form, 'proxy_username')),
  };
  const password = String(form.get('proxy_password') ?? '');
  if (form.get('proxy_password_remove') === 'on') body.password = null;
  else if (password !== '') body.password = password;
  return body;
}
