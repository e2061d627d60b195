import { IdParams } from '../shared/schemas/ids';
import { Ok } from '../shared/schemas/ok';
import { Flow, FlowList, NewFlow } from '../../storage/flows/schema';
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
