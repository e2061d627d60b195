import { z } from 'zod';
import { SCOPES } from '../scopes';

/** A code that carries nothing beyond its message. */
const NONE = z.object({});
const ids = z.array(z.string()).meta({ description: 'The ids at fault.' });
/** A chosen flow or item and the dependency of it that was not chosen. */
const missingDependencies = z.array(z.object({ id: z.string(), dependency: z.string() }));

/**
 * The stable error codes of LPA. Clients branch on `status` and `code`; the message is for people,
 * `details` is the code's own schema (the OpenAPI document has one error component per code). The
 * document and docs/reference/errors.md are generated from this table, so a code is declared here
 * once and nowhere else.
 */
export const ERROR_CATALOG = {
  'auth.token_missing': {
    status: 401,
    message: 'A bearer token is required in the Authorization header.',
    details: NONE,
  },
  'auth.token_invalid': { status: 401, message: 'The bearer token is invalid, expired or revoked.', details: NONE },
  'auth.scope_missing': {
    status: 403,
    message: 'The token lacks a scope that this route requires.',
    details: z.object({
      missing: z.array(z.enum(SCOPES)).meta({ description: 'The scopes the route needs that the token lacks.' }),
    }),
  },
  'auth.admin_required': { status: 403, message: 'This route needs an admin session.', details: NONE },
  'auth.not_member': {
    status: 403,
    message: 'Cloudflare Access let this person or service in, but it is not a member of this team.',
    details: z.object({ member: z.string().max(254) }),
  },
  'auth.throttled': {
    status: 429,
    message: 'Too many failed authentications from this address; retry later.',
    details: z.object({ retry_after_s: z.int().min(1).max(60) }),
  },
  'request.host_forbidden': {
    status: 421,
    message: 'The Host header is not an allowed local address and port.',
    details: z.object({ host: z.string().max(255) }),
  },
  'request.origin_forbidden': {
    status: 403,
    message: 'This browser origin may not call the API.',
    details: z.object({ origin: z.string().max(255) }),
  },
  'request.invalid': {
    status: 400,
    message: 'The request has invalid fields.',
    details: z.object({
      issues: z.array(
        z.object({
          in: z.enum(['path', 'query', 'body']),
          path: z
            .array(z.union([z.string(), z.int()]))
            .meta({ description: 'Where in that part: field names and array indexes.' }),
          code: z
            .string()
            .meta({ description: 'The kind of problem (zod issue codes: invalid_type, too_big, custom, …).' }),
          message: z.string(),
        }),
      ),
    }),
  },
  'request.body_timeout': {
    status: 408,
    message: 'The request body did not arrive whole in time.',
    details: z.object({ timeout_ms: z.int() }),
  },
  'request.malformed_json': { status: 400, message: 'The request body is not valid JSON.', details: NONE },
  'request.body_incomplete': {
    status: 400,
    message:
      'The request body broke off: malformed chunked encoding, fewer bytes than Content-Length, or an aborted upload.',
    details: NONE,
  },
  'request.unsupported_media_type': {
    status: 415,
    message: 'Content-Type must be application/json.',
    details: z.object({ content_type: z.string().max(100) }),
  },
  'request.too_large': {
    status: 413,
    message: 'The request body is larger than this route accepts.',
    details: z.object({ limit_bytes: z.int() }),
  },
  'route.not_found': {
    status: 404,
    message: 'No such route.',
    details: z.object({ method: z.string(), path: z.string().max(200) }),
  },
  'team.not_found': {
    status: 404,
    message: 'No team has this id: it is not of the form of one (3 to 63 of a-z, 0-9 and -).',
    details: z.object({ team_id: z.string().max(63) }),
  },
  'team.unreachable': {
    status: 503,
    message: 'The team this machine joined did not answer; local routes still work. Retry later.',
    details: z.object({ reason: z.string().max(300) }),
  },
  'team.bad_answer': {
    status: 502,
    message:
      "The team's answer is not one this machine passes on: not the team API's JSON, or larger than 24 MiB. Nothing of it was kept.",
    details: z.object({ status: z.int().nullable(), reason: z.string().max(300) }),
  },
  'team.not_joined': {
    status: 409,
    message: 'This machine has joined no team (`lpa team join`).',
    details: z.object({}),
  },
  'team.refused': {
    status: 502,
    message: "The team answered this machine's own request with an error (its team token may lack audit:read).",
    details: z.object({ status: z.int(), code: z.string().max(64) }),
  },
  'team.scope_missing': {
    status: 403,
    message:
      "The team refused this machine's team token: it lacks a scope this route needs at the team. The caller's own token has it; the machine must hold a team token with it (docs/teams.md#the-machines-team-token).",
    details: z.object({
      missing: z
        .array(z.enum(SCOPES))
        .meta({ description: "The scopes the route needs that the machine's team token lacks." }),
      team_request_id: z.string().max(64).nullable(),
    }),
  },
  'team.exists': {
    status: 409,
    message: 'A team with this id exists.',
    details: z.object({ team_id: z.string().max(63) }),
  },
  'team.not_empty': {
    status: 409,
    message:
      'The team holds data that was not pushed from this store: `lpa team push` copies a solo store into an empty team only.',
    details: z.object({ store_id: z.string().max(64), pushed_from: z.string().max(64).nullable() }),
  },
  'resource.not_found': {
    status: 404,
    message: 'No such resource.',
    details: z
      .object({
        resource: z.string().meta({
          description:
            'What was not found: profile, profile_account, password, totp_secret, token, flow, job, share, global, file, log_file, member.',
        }),
        id: z.string().optional(),
        account_id: z.string().optional(),
        name: z.string().optional(),
        stream: z.string().optional(),
        file: z.string().optional(),
      })
      .meta({ description: 'The kind of resource and the key it was looked up by.' }),
  },
  'state.revision_conflict': {
    status: 409,
    message: 'The revision does not match; re-read before retrying.',
    details: z.object({ current_revision: z.int() }),
  },
  'run.browser_missing': {
    status: 503,
    message: 'No browser to start: install Chromium or set LPA_BROWSER.',
    details: z.object({ problem: z.string() }),
  },
  'run.active': {
    status: 409,
    message: 'The profile is already running; its live run is in details.',
    details: z.object({ run_id: z.string(), state: z.string(), started_at: z.int() }),
  },
  'account.running_limit': {
    status: 429,
    message: 'The signed-in account may not run more profiles at once; stop one first.',
    details: z.object({ max: z.int(), running: z.int() }),
  },
  'account.daily_starts_limit': {
    status: 429,
    message: "The signed-in account has used today's starts (a UTC day); retry after Retry-After seconds.",
    details: z.object({ max: z.int(), started_today: z.int(), retry_after_s: z.int() }),
  },
  'run.not_running': { status: 409, message: 'The profile is not running.', details: NONE },
  'proxy.not_set': { status: 409, message: 'The profile has no proxy.', details: NONE },
  'proxy.auth_failed': {
    status: 502,
    message: "The profile's proxy refused its credentials.",
    details: z.object({ proxy: z.string().meta({ description: 'type://host:port, never the credentials' }) }),
  },
  'proxy.unreachable': {
    status: 502,
    message: "The profile's proxy could not be reached.",
    details: z.object({ proxy: z.string(), error: z.string() }),
  },
  'proxy.check_failed': {
    status: 502,
    message: "The page did not answer through the profile's proxy; the check's result is in details.",
    details: z.object({
      proxy: z.string(),
      url: z.string(),
      status: z.int().nullable(),
      error: z.string().nullable(),
    }),
  },
  'run.locked_elsewhere': {
    status: 409,
    message:
      'The team profile runs on another machine of the team; its lease names where (docs/teams.md#runs-across-machines).',
    details: z.object({
      profile_id: z.string(),
      machine_id: z.string().nullable(),
      machine_label: z.string(),
      who: z.string().meta({ description: 'The member or team token that holds the lease.' }),
      since: z.int(),
      expires_at: z.int(),
    }),
  },
  'run.lease_lost': {
    status: 409,
    message: "This run no longer holds the profile's lease: it expired, was released or an admin broke it.",
    details: z.object({ profile_id: z.string(), run_id: z.string() }),
  },
  'bundle.stale': {
    status: 409,
    message:
      "This run no longer holds the profile's lease under that fencing number: its browser data is not the newest, and is refused (docs/teams.md#what-travels).",
    details: z.object({ profile_id: z.string(), fencing: z.int(), lease_fencing: z.int().nullable() }),
  },
  'bundle.too_large': {
    status: 413,
    message:
      "The profile's browser data is larger than the team keeps; the previous version is kept (docs/teams.md#what-travels).",
    details: z.object({ profile_id: z.string(), max_bytes: z.int() }),
  },
  'bundle.corrupt': {
    status: 422,
    message: 'The uploaded parts do not add up to the size and hash the upload named; the previous version is kept.',
    details: z.object({ profile_id: z.string(), problem: z.string() }),
  },
  'bundle.unusable': {
    status: 502,
    message:
      "The team profile's newest browser data could not be downloaded or opened on this machine, so its browser was not started with older data; the reason is in details.",
    details: z.object({ profile_id: z.string(), error: z.string() }),
  },
  'cookies.content_invalid': {
    status: 400,
    message: 'The cookies could not be read at all (no row of them was imported); see docs/cookies.md for the formats.',
    details: z.object({ format: z.enum(['json', 'netscape']), problem: z.string() }),
  },
  'cookies.browser_failed': {
    status: 502,
    message: "The profile's browser could not read or write its cookies; the browser's words are in details.",
    details: z.object({ error: z.string() }),
  },
  'run.start_failed': {
    status: 502,
    message: 'The browser did not start; its last output is in details.',
    details: z.object({ run_id: z.string(), error: z.string() }),
  },
  'synchronizer.running': {
    status: 409,
    message: 'The synchronizer is already running; stop it first. Its status is in details.',
    details: z.object({ source_id: z.string().nullable(), follower_ids: z.array(z.string()) }),
  },
  'synchronizer.not_running': { status: 409, message: 'The synchronizer is not running.', details: NONE },
  'state.conflict': { status: 409, message: 'The request conflicts with the current state.', details: NONE },
  'members.last_owner': {
    status: 409,
    message: 'This is the last owner of the team; make another member owner before removing or demoting this one.',
    details: z.object({ email: z.string() }),
  },
  'vault.locked': {
    status: 503,
    message: 'The secret vault is not available; secrets cannot be read or written.',
    details: z.object({ state: z.enum(['locked', 'missing']), reason: z.string().nullable() }),
  },
  'flows.unknown': {
    status: 400,
    message: 'Some of the given flow ids name no existing flow; see details.ids.',
    details: z.object({ ids }),
  },
  'flows.has_dependents': {
    status: 409,
    message: 'Other flows depend on this flow; delete them first (details.dependents).',
    details: z.object({ dependents: ids }),
  },
  'flows.missing_values': {
    status: 400,
    message: 'Some values the flow (or a flow it runs) refers to have no value; see details.missing.',
    details: z.object({
      missing: z.array(z.object({ flow_id: z.string(), name: z.string() })).meta({
        description: 'Each value with no value in the run request, in its flow or among the globals.',
      }),
    }),
  },
  'flows.dependency_cycle': {
    status: 400,
    message: 'The flows depend on each other in a cycle (dependencies or run_flow); see details.cycle.',
    details: z.object({ cycle: ids }),
  },
  'flows.not_runnable': {
    status: 400,
    message:
      'A flow of the run has a step that is not a step of the vocabulary (saved before it existed); see details.',
    details: z.object({ flow_id: z.string(), step: z.int(), reason: z.string() }),
  },
  'flows.profile_busy': {
    status: 409,
    message: 'Some profiles are in a running flow job; wait for it or cancel it (details.profile_ids).',
    details: z.object({ profile_ids: ids }),
  },
  'flows.job_ended': {
    status: 409,
    message: 'The job has already ended.',
    details: z.object({ state: z.string() }),
  },
  'shares.dependencies_outside': {
    status: 400,
    message: 'A chosen flow depends on a flow that is not in the share; see details.missing.',
    details: z.object({ missing: missingDependencies }),
  },
  'shares.bundle_too_large': {
    status: 400,
    message: 'The share bundle would be larger than a share may hold.',
    details: z.object({ size: z.int(), limit_bytes: z.int() }),
  },
  'shares.code_malformed': { status: 400, message: 'This is not a share code.', details: NONE },
  'shares.code_unknown': { status: 404, message: 'No share has this code.', details: NONE },
  'shares.code_invalid': {
    status: 400,
    message: 'The share code does not open its share (altered or mistyped).',
    details: NONE,
  },
  'shares.revoked': { status: 409, message: 'The share was revoked.', details: z.object({ id: z.string() }) },
  'shares.expired': {
    status: 409,
    message: 'The share has expired.',
    details: z.object({ id: z.string(), expires_at: z.int() }),
  },
  'shares.exhausted': {
    status: 409,
    message: 'The share has been redeemed as often as it allows.',
    details: z.object({ id: z.string(), uses: z.int(), max_uses: z.int() }),
  },
  'shares.ticket_unknown': { status: 404, message: 'No import ticket has this id.', details: NONE },
  'shares.ticket_used': { status: 409, message: 'The import ticket was already used.', details: NONE },
  'shares.ticket_expired': {
    status: 409,
    message: 'The import ticket has expired; redeem the code again.',
    details: z.object({ expires_at: z.int() }),
  },
  'shares.import_unknown_items': {
    status: 400,
    message: 'Some of the given ids are not items of the share; see details.ids.',
    details: z.object({ ids }),
  },
  'shares.import_dependencies_missing': {
    status: 400,
    message: 'A chosen item depends on an item that was not chosen; see details.missing.',
    details: z.object({ missing: missingDependencies }),
  },
  'files.exists': {
    status: 409,
    message: 'A file of this name exists; files are never replaced.',
    details: z.object({ name: z.string() }),
  },
  'files.folder_refused': {
    status: 503,
    message:
      'The automation folder is a link or leaves the data root, so it is not used; core status says where it points.',
    details: NONE,
  },
  'audit.export_too_large': {
    status: 413,
    message: 'More audit entries match than one export may hold; narrow the filters.',
    details: z.object({ count: z.int(), max_entries: z.int(), max_bytes: z.int() }),
  },
  'audit.export_busy': {
    status: 429,
    message: 'As many audit exports as the service runs at once are running; retry after Retry-After seconds.',
    details: z.object({ max_concurrent: z.int(), retry_after_s: z.int() }),
  },
  'audit.verify_busy': {
    status: 429,
    message: 'A verify of the audit log is running; one runs at a time. Retry after Retry-After seconds.',
    details: z.object({ retry_after_s: z.int() }),
  },
  'audit.signing_key_missing': {
    status: 503,
    message:
      'The audit signing key (audit-signing.key) is missing or unreadable; nothing can be signed or checked against it.',
    details: NONE,
  },
  'request.cursor_invalid': {
    status: 400,
    message: 'The cursor is not one this service issued, or it was altered.',
    details: NONE,
  },
  'request.cursor_mismatch': {
    status: 400,
    message: 'The cursor belongs to another sort, order or filter; pass it back with the parameters it came with.',
    details: NONE,
  },
  'profile_accounts.limit_reached': {
    status: 409,
    message: 'This profile holds the most platform accounts it may.',
    details: z.object({ max: z.int() }),
  },
  'account.limit_reached': {
    status: 403,
    message: 'The signed-in account may not have more profiles.',
    details: z.object({ limit: z.literal('profiles'), max: z.int(), usage: z.int() }),
  },
  'account.entitlement_missing': {
    status: 403,
    message: 'The signed-in account is not entitled to this.',
    details: z.object({ entitlement: z.string() }),
  },
  'vault.unreadable': {
    status: 500,
    message: 'A stored secret does not decrypt: it was altered, or sealed under another vault key.',
    details: z.object({
      account_id: z.string().optional(),
      profile_id: z.string().optional(),
      field: z.enum(['password', 'totp_secret', 'proxy_password']),
    }),
  },
  internal: { status: 500, message: 'Internal error.', details: NONE },
} as const satisfies Record<string, { status: number; message: string; details: z.ZodObject }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
