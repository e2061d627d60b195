import { IdParams } from '../shared/schemas/ids';
import { Ok } from '../shared/schemas/ok';
import {
  NewShare, ShareImportRequest, ShareImportResult, ShareList, ShareRedeemPreview, ShareRedeemRequest, ShareWithCode,
} from '../../storage/shares/schema';
import { defineContract } from './define';

export const shares = {
  list: defineContract({
    method: 'GET',
    path: '/api/v1/automation/shares',
    home: 'team',
    tag: 'Automation',
    summary: 'Shares that are not revoked; never their codes',
    scopes: ['runtime:control'],
    response: ShareList,
  }),
  create: defineContract({
    method: 'POST',
    path: '/api/v1/automation/shares',
    home: 'team',
    tag: 'Automation',
    summary: 'Share flows: an encrypted bundle and its code, which is shown only in this answer',
    scopes: ['runtime:control', 'secrets:read', 'rpa:write'],
    body: NewShare,
    response: ShareWithCode,
    audit: 'shares.create',
    errors: ['flows.unknown', 'shares.dependencies_outside', 'shares.bundle_too_large', 'vault.locked'],
  }),
  revoke: defineContract({
    method: 'DELETE',
    path: '/api/v1/automation/shares/:id',
    home: 'team',
    tag: 'Automation',
    summary: 'Revoke a share: its code stops working and its bundle is deleted',
    scopes: ['runtime:control', 'rpa:write'],
    params: IdParams,
    response: Ok,
    audit: 'shares.revoke',
    errors: ['resource.not_found'],
  }),
  redeem: defineContract({
    method: 'POST',
    path: '/api/v1/automation/shares/redeem',
    home: 'team',
    tag: 'Automation',
    summary: 'Redeem a share code (one use) for an import preview and ticket',
    scopes: ['runtime:control', 'rpa:write'],
    body: ShareRedeemRequest,
    response: ShareRedeemPreview,
    audit: 'shares.redeem',
    errors: [
      'shares.code_malformed', 'shares.code_unknown', 'shares.code_invalid', 'shares.revoked', 'shares.expired', 'shares.exhausted',
      'vault.locked',
    ],
  }),
  import: defineContract({
    method: 'POST',
    path: '/api/v1/automation/shares/import',
    home: 'team',
    tag: 'Automation',
    summary: 'Import chosen items of a redeemed share as new flows',
    scopes: ['runtime:control', 'rpa:write'],
    body: ShareImportRequest,
    response: ShareImportResult,
    audit: 'shares.import',
    errors: [
      'shares.ticket_unknown', 'shares.ticket_used', 'shares.ticket_expired', 'shares.revoked', 'shares.import_unknown_items',
      'shares.import_dependencies_missing', 'vault.locked',
    ],
  }),
};
