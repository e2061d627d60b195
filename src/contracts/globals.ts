import { z } from 'zod';
import { Ok } from '../shared/schemas/ok';
import {
  GLOBAL_VALUE_MAX_CHARS,
  GlobalDelete,
  GlobalList,
  GlobalName,
  GlobalSummary,
  GlobalValue,
  GlobalWrite,
} from '../../storage/globals/schema';
import { defineContract } from './define';

/**
 * The body limit fits the largest legal value however a JSON encoder writes it: a character can
 * take up to six bytes (`\u001f`), plus the field names, the revision and some white space.
 */
const GLOBAL_BODY_LIMIT = 6 * GLOBAL_VALUE_MAX_CHARS + 64 * 1024;

const Named = z.object({ name: GlobalName });

export const globals = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/automation/globals',
    home: 'team',
    tag: 'Automation',
    summary: 'Automation globals, without their values',
    scopes: ['runtime:control'],
    response: GlobalList,
  }),
  read: defineContract({
    method: 'GET',
    path: '/api/v1/automation/globals/:name',
    home: 'team',
    tag: 'Automation',
    summary: 'The plaintext value of a global; the read is audited',
    scopes: ['runtime:control', 'secrets:read'],
    params: Named,
    response: GlobalValue,
    audit: 'globals.read',
    errors: ['resource.not_found', 'vault.locked'],
  }),
  write: defineContract({
    method: 'PUT',
    path: '/api/v1/automation/globals/:name',
    home: 'team',
    tag: 'Automation',
    summary: 'Create (expected_revision 0) or change (expected_revision = current revision) a global',
    scopes: ['runtime:control', 'secrets:read', 'rpa:write'],
    params: Named,
    body: GlobalWrite,
    bodyLimit: GLOBAL_BODY_LIMIT,
    response: GlobalSummary,
    audit: 'globals.write',
    errors: ['state.revision_conflict', 'vault.locked'],
  }),
  delete: defineContract({
    method: 'DELETE',
    path: '/api/v1/automation/globals/:name',
    home: 'team',
    tag: 'Automation',
    summary: 'Delete a global at the given revision',
    scopes: ['runtime:control', 'rpa:write'],
    params: Named,
    query: GlobalDelete,
    response: Ok,
    audit: 'globals.delete',
    errors: ['resource.not_found', 'state.revision_conflict'],
  }),
};
