import type { ProfileSort } from '../../storage/profiles/schema';
import type { Input } from './api';
import { fieldText } from './field-text';

/** The list's sort keys, each with its label; typed by the API's, so a key added there must be named here. */
export const PROFILE_SORT_LABELS: Record<ProfileSort, string> = {
  no: 'Number',
  name: 'Name',
  created_at: 'Created',
  updated_at: 'Updated',
};

/** The list's filters and order as the API takes them: its query without the paging. */
export type ProfileFilters = Omit<NonNullable<Input<'GET', '/api/v1/profiles'>['query']>, 'cursor' | 'page' | 'limit'>;

/** The filter form as the API's query: a blank field is no filter; "pinned" is any, yes or no. */
export function profileFilters(form: FormData): ProfileFilters {
  const query: ProfileFilters = {};
  for (const name of ['q', 'group', 'tag', 'sort', 'order'] as const) {
    const value = fieldText(form, name);
    if (value) query[name] = value;
  }
  const pinned = fieldText(form, 'pinned');
  if (pinned) query.pinned = pinned === 'yes';
  return query;
}
