/**
 * The stable error codes of LPA. Clients branch on `status` and `code`; the message is for people.
 * The OpenAPI document and the README's catalogue are generated from this table, so a code is
 * declared here once and nowhere else.
 */
export const ERROR_CATALOG = {
  'auth.token_missing': { status: 401, message: 'A bearer token is required in the Authorization header.' },
  'auth.token_invalid': { status: 401, message: 'The bearer token is invalid, expired or revoked.' },
  'auth.scope_missing': { status: 403, message: 'The token lacks a scope that this route requires.' },
  'auth.admin_required': { status: 403, message: 'This route needs an admin session.' },
  'auth.throttled': { status: 429, message: 'Too many failed authentications from this address; retry later.' },
  'request.host_forbidden': { status: 421, message: 'The Host header is not an allowed local address and port.' },
  'request.origin_forbidden': { status: 403, message: 'This browser origin may not call the API.' },
  'request.invalid': { status: 400, message: 'The request has invalid fields.' },
  'request.malformed_json': { status: 400, message: 'The request body is not valid JSON.' },
  'request.body_incomplete': { status: 400, message: 'The request body broke off: malformed chunked encoding, fewer bytes than Content-Length, or an aborted upload.' },
  'request.unsupported_media_type': { status: 415, message: 'Content-Type must be application/json.' },
  'request.too_large': { status: 413, message: 'The request body is larger than this route accepts.' },
  'route.not_found': { status: 404, message: 'No such route.' },
  'resource.not_found': { status: 404, message: 'No such resource.' },
  'state.revision_conflict': { status: 409, message: 'The revision does not match; re-read before retrying.' },
  'state.conflict': { status: 409, message: 'The request conflicts with the current state.' },
  'vault.locked': { status: 503, message: 'The secret vault is not available; secrets cannot be read or written.' },
  'flows.unknown': { status: 400, message: 'Some of the given flow ids name no existing flow; see details.ids.' },
  'flows.has_dependents': { status: 409, message: 'Other flows depend on this flow; delete them first (details.dependents).' },
  'shares.dependencies_outside': { status: 400, message: 'A chosen flow depends on a flow that is not in the share; see details.missing.' },
  'shares.bundle_too_large': { status: 400, message: 'The share bundle would be larger than a share may hold.' },
  'shares.code_malformed': { status: 400, message: 'This is not a share code.' },
  'shares.code_unknown': { status: 404, message: 'No share has this code.' },
  'shares.code_invalid': { status: 400, message: 'The share code does not open its share (altered or mistyped).' },
  'shares.revoked': { status: 409, message: 'The share was revoked.' },
  'shares.expired': { status: 409, message: 'The share has expired.' },
  'shares.exhausted': { status: 409, message: 'The share has been redeemed as often as it allows.' },
  'shares.ticket_unknown': { status: 404, message: 'No import ticket has this id.' },
  'shares.ticket_used': { status: 409, message: 'The import ticket was already used.' },
  'shares.ticket_expired': { status: 409, message: 'The import ticket has expired; redeem the code again.' },
  'shares.import_unknown_items': { status: 400, message: 'Some of the given ids are not items of the share; see details.ids.' },
  'shares.import_dependencies_missing': {
    status: 400,
    message: 'A chosen item depends on an item that was not chosen; see details.missing.',
  },
  'files.exists': { status: 409, message: 'A file of this name exists; files are never replaced.' },
  'audit.export_too_large': { status: 413, message: 'More audit entries match than one export may hold; narrow the filters.' },
  'request.cursor_invalid': { status: 400, message: 'The cursor is not one this service issued, or it was altered.' },
  'request.cursor_mismatch': { status: 400, message: 'The cursor belongs to another sort, order or filter; pass it back with the parameters it came with.' },
  'profile_accounts.limit_reached': { status: 409, message: 'This profile holds the most platform accounts it may.' },
  'account.limit_reached': { status: 403, message: 'The signed-in account may not have more profiles.' },
  'account.entitlement_missing': { status: 403, message: 'The signed-in account is not entitled to this.' },
  'vault.unreadable': { status: 500, message: 'A stored secret does not decrypt: it was altered, or sealed under another vault key.' },
  internal: { status: 500, message: 'Internal error.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
