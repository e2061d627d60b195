import { IdParams } from '../shared/schemas/ids';
import { Ok } from '../shared/schemas/ok';
import { CreatedToken, TokenInput, TokenList, TokenSelf } from '../../storage/tokens/schema';
import { defineContract } from './define';

export const tokens = {
  create: defineContract({
    method: 'POST',
    path: '/api/v1/tokens',
    home: 'local',
    tag: 'Tokens',
    summary: 'Issue a token; its secret is shown once and stored only as a hash',
    access: 'admin',
    body: TokenInput,
    status: 201,
    response: CreatedToken,
    audit: 'tokens.create',
  }),
  list: defineContract({
    method: 'GET',
    path: '/api/v1/tokens',
    home: 'local',
    tag: 'Tokens',
    summary: 'Live tokens (not revoked), without their secrets',
    access: 'admin',
    response: TokenList,
  }),
  self: defineContract({
    method: 'GET',
    path: '/api/v1/tokens/self',
    home: 'local',
    tag: 'Tokens',
    summary: 'The token this request came with: its id, name, scopes, admin flag and expiry (never its secret)',
    description: 'Any valid token may ask; what a client may show or do follows from the answer.',
    response: TokenSelf,
  }),
  revoke: defineContract({
    method: 'DELETE',
    path: '/api/v1/tokens/:id',
    home: 'local',
    tag: 'Tokens',
    summary: 'Revoke a token; it is refused from the next request on',
    access: 'admin',
    params: IdParams,
    response: Ok,
    audit: 'tokens.revoke',
    errors: ['resource.not_found'],
  }),
};
