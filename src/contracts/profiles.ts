import { IdParams } from '../shared/schemas/ids';
import { Profile, ProfileInput, ProfilePage, ProfilePatch, ProfileQuery } from '../../storage/profiles/schema';
import { defineContract } from './define';

export const profiles = {
  create: defineContract({
    method: 'POST',
    path: '/api/v1/profiles',
    tag: 'Profiles',
    summary: 'Create a profile; it gets the next serial number `no`',
    description: 'When an account is signed in, its `entitlements.profiles` and `limits.profiles` are enforced.',
    scopes: ['profiles:write'],
    body: ProfileInput,
    status: 201,
    response: Profile,
    audit: 'profiles.create',
    errors: ['account.limit_reached', 'account.entitlement_missing'],
  }),
  list: defineContract({
    method: 'GET',
    path: '/api/v1/profiles',
    tag: 'Profiles',
    summary: 'List profiles by page or by keyset cursor',
    description:
      '`next_cursor` continues the traversal with the same sort, order and filters (it is bound to them) and is null at the end, ' +
      'and always with `pinned_first=true`, which pages by `page` only. `total` counts every profile that matches the filters.',
    scopes: ['profiles:read'],
    query: ProfileQuery,
    response: ProfilePage,
    errors: ['request.cursor_invalid', 'request.cursor_mismatch'],
  }),
  read: defineContract({
    method: 'GET',
    path: '/api/v1/profiles/:id',
    tag: 'Profiles',
    summary: 'One profile',
    scopes: ['profiles:read'],
    params: IdParams,
    response: Profile,
    errors: ['resource.not_found'],
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/api/v1/profiles/:id',
    tag: 'Profiles',
    summary: 'Change the given fields of a profile',
    scopes: ['profiles:write'],
    params: IdParams,
    body: ProfilePatch,
    response: Profile,
    audit: 'profiles.update',
    errors: ['resource.not_found'],
  }),
  delete: defineContract({
    method: 'DELETE',
    path: '/api/v1/profiles/:id',
    tag: 'Profiles',
    summary: 'Delete a profile and its platform accounts',
    scopes: ['profiles:write'],
    params: IdParams,
    status: 204,
    audit: 'profiles.delete',
    errors: ['resource.not_found'],
  }),
};
