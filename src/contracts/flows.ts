import { IdParams } from '../shared/schemas/ids';
import { Ok } from '../shared/schemas/ok';
import { Flow, FlowList, FlowPatch, NewFlow } from '../../storage/flows/schema';
import { defineContract } from './define';

export const flows = {
  create: defineContract({
    method: 'POST',
    path: '/api/v1/automation/flows',
    home: 'team',
    tag: 'Automation',
    summary: 'Create a flow; protected values are encrypted at rest and never shown again',
    scopes: ['runtime:control', 'rpa:write'],
    body: NewFlow,
    status: 201,
    response: Flow,
    audit: 'flows.create',
    errors: ['flows.unknown', 'vault.locked'],
  }),
  list: defineContract({
    method: 'GET',
    path: '/api/v1/automation/flows',
    home: 'team',
    tag: 'Automation',
    summary: 'Flow summaries, oldest first',
    scopes: ['runtime:control'],
    response: FlowList,
  }),
  read: defineContract({
    method: 'GET',
    path: '/api/v1/automation/flows/:id',
    home: 'team',
    tag: 'Automation',
    summary: 'One flow with its steps and values (protected values as null)',
    scopes: ['runtime:control'],
    params: IdParams,
    response: Flow,
    errors: ['resource.not_found'],
  }),
  update: defineContract({
    method: 'PATCH',
    path: '/api/v1/automation/flows/:id',
    home: 'team',
    tag: 'Automation',
    summary: 'Change the given fields of a flow; a protected value sent without a value keeps its secret',
    description:
      '`steps`, `values` and `dependencies` replace the whole list. A value sent without `value` keeps the one stored under its name (a protected one stays sealed and is never shown); `value: null` removes it. New dependencies must name existing flows (`400 flows.unknown`) and close no cycle (`400 flows.dependency_cycle`).',
    scopes: ['runtime:control', 'rpa:write'],
    params: IdParams,
    body: FlowPatch,
    response: Flow,
    audit: 'flows.update',
    errors: ['resource.not_found', 'flows.unknown', 'flows.dependency_cycle', 'vault.locked'],
  }),
  delete: defineContract({
    method: 'DELETE',
    path: '/api/v1/automation/flows/:id',
    home: 'team',
    tag: 'Automation',
    summary: 'Delete a flow that no other flow depends on',
    scopes: ['runtime:control', 'rpa:write'],
    params: IdParams,
    response: Ok,
    audit: 'flows.delete',
    errors: ['resource.not_found', 'flows.has_dependents'],
  }),
};
