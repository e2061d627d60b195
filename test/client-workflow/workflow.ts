/**
 * A script as a user of LPA writes it: a client generated from the served OpenAPI document
 * (openapi-typescript into ./generated/schema.d.ts) and openapi-fetch, no cast and no hand-written
 * type. test/node/generated-client.test.ts generates the types, type-checks this file with
 * `tsc --strict` and runs it against a live service; it prints what it saw as one JSON object.
 * Usage: LPA_URL=http://127.0.0.1:8719 LPA_TOKEN=<admin token> tsx workflow.ts
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/schema';

const baseUrl = process.env.LPA_URL ?? 'http://127.0.0.1:8719';
const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${process.env.LPA_TOKEN ?? ''}` } });

/** The body of a success; a failure stops the script with the envelope's code. */
async function ok<T>(
  call: Promise<{ data?: T; error?: { error: { code: string; message: string } }; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error) throw new Error(`${response.url}: ${response.status} ${error.error.code}: ${error.error.message}`);
  if (data === undefined) throw new Error(`${response.url}: ${response.status} without a body`);
  return data;
}

/** A success without a body (204). */
async function done(call: Promise<{ error?: { error: { code: string } }; response: Response }>): Promise<number> {
  const { error, response } = await call;
  if (error) throw new Error(`${response.url}: ${response.status} ${error.error.code}`);
  return response.status;
}

const seen: Record<string, unknown> = {};

// System
seen.status = (await ok(api.GET('/status'))).status;
seen.api_version = (await ok(api.GET('/api/v1/version'))).api_version;
seen.system_mode = (await ok(api.GET('/api/v1/system/status'))).mode;
seen.openapi = (await ok(api.GET('/api/v1/openapi.json'))).openapi;

// Tokens
const token = await ok(
  api.POST('/api/v1/tokens', { body: { name: 'workflow', scopes: ['profiles:read'], expires_in_minutes: 60 } }),
);
seen.token_secret_shown = token.token.length > 0;
seen.token_listed = (await ok(api.GET('/api/v1/tokens'))).items.some((t) => t.id === token.id);
seen.token_revoked = (await ok(api.DELETE('/api/v1/tokens/{id}', { params: { path: { id: token.id } } }))).ok;

// Profiles: the list needs no query at all; its defaults apply.
const profile = await ok(api.POST('/api/v1/profiles', { body: { name: 'workflow profile', tags: ['a', 'b'] } }));
await ok(api.POST('/api/v1/profiles', { body: { name: 'second profile' } }));
const firstPage = await ok(api.GET('/api/v1/profiles'));
seen.profiles_total = firstPage.total;
const byCursor = await ok(
  api.GET('/api/v1/profiles', { params: { query: { limit: 1, sort: 'name', order: 'desc' } } }),
);
const next = byCursor.next_cursor;
if (next !== null) {
  const second = await ok(
    api.GET('/api/v1/profiles', { params: { query: { limit: 1, sort: 'name', order: 'desc', cursor: next } } }),
  );
  seen.profiles_by_cursor = [...byCursor.items, ...second.items].map((p) => p.name);
}
seen.profile_pinned = (
  await ok(api.PATCH('/api/v1/profiles/{id}', { params: { path: { id: profile.id } }, body: { pinned: true } }))
).pinned;
seen.profile_tags = (await ok(api.GET('/api/v1/profiles/{id}', { params: { path: { id: profile.id } } }))).tags;

// Platform accounts, with their password and 2FA code
const accountPath = { id: profile.id };
const account = await ok(
  api.POST('/api/v1/profiles/{id}/accounts', {
    params: { path: accountPath },
    body: { platform_url: 'https://example.com', username: 'me', password: 'hunter2', totp_secret: 'JBSWY3DPEHPK3PXP' },
  }),
);
const onAccount = { path: { id: profile.id, accountId: account.id } };
seen.accounts = (await ok(api.GET('/api/v1/profiles/{id}/accounts', { params: { path: accountPath } }))).items.length;
seen.password = (
  await ok(api.GET('/api/v1/profiles/{id}/accounts/{accountId}/password', { params: onAccount }))
).password;
const totp = await ok(api.GET('/api/v1/profiles/{id}/accounts/{accountId}/totp', { params: onAccount }));
seen.totp_digits = totp.code.length;
seen.account_notes = (
  await ok(api.PATCH('/api/v1/profiles/{id}/accounts/{accountId}', { params: onAccount, body: { notes: 'n' } }))
).notes;
seen.account_deleted = await done(api.DELETE('/api/v1/profiles/{id}/accounts/{accountId}', { params: onAccount }));

// Globals: a stale revision is a conflict whose details name the current one.
const named = { path: { name: 'WORKFLOW_GLOBAL' } };
const global = await ok(
  api.PUT('/api/v1/automation/globals/{name}', { params: named, body: { value: 'v1', expected_revision: 0 } }),
);
const stale = await api.PUT('/api/v1/automation/globals/{name}', {
  params: named,
  body: { value: 'v2', expected_revision: 0 },
});
if (stale.error?.error.code === 'state.revision_conflict') {
  const current: number = stale.error.error.details.current_revision;
  seen.conflict_current_revision = current;
}
seen.global_value = (await ok(api.GET('/api/v1/automation/globals/{name}', { params: named }))).value;
seen.globals = (await ok(api.GET('/api/v1/automation/globals'))).items.map((g) => g.name);
seen.global_deleted = (
  await ok(
    api.DELETE('/api/v1/automation/globals/{name}', {
      params: { ...named, query: { expected_revision: global.revision } },
    }),
  )
).ok;

// Flows
const base = await ok(
  api.POST('/api/v1/automation/flows', {
    body: {
      name: 'base',
      steps: [{ type: 'open_url', url: 'https://example.com' }],
      values: [{ name: 'k', value: 's', protected: true }],
    },
  }),
);
const dependent = await ok(
  api.POST('/api/v1/automation/flows', { body: { name: 'dependent', steps: [], dependencies: [base.id] } }),
);
const unknown = await api.POST('/api/v1/automation/flows', {
  body: { name: 'orphan', steps: [], dependencies: ['no-such-flow'] },
});
if (unknown.error?.error.code === 'flows.unknown') {
  const ids: string[] = unknown.error.error.details.ids;
  seen.unknown_flow_ids = ids;
}
seen.flows = (await ok(api.GET('/api/v1/automation/flows'))).items.length;
seen.flow_values = (
  await ok(api.GET('/api/v1/automation/flows/{id}', { params: { path: { id: base.id } } }))
).values.map((v) => [v.name, v.value_set]);

// Shares: create, redeem, import
const share = await ok(
  api.POST('/api/v1/automation/shares', {
    body: { ids: [base.id, dependent.id], name: 'workflow share', expires_in_minutes: 60, max_uses: 2 },
  }),
);
seen.shares = (await ok(api.GET('/api/v1/automation/shares'))).items.map((s) => s.id === share.id);
const preview = await ok(api.POST('/api/v1/automation/shares/redeem', { body: { code: share.code } }));
seen.preview_items = preview.items.length;
const imported = await ok(
  api.POST('/api/v1/automation/shares/import', {
    body: { ticket: preview.ticket, ids: preview.items.map((i) => i.id) },
  }),
);
seen.imported = imported.items.map((f) => f.name);
seen.share_revoked = (
  await ok(api.DELETE('/api/v1/automation/shares/{id}', { params: { path: { id: share.id } } }))
).ok;
seen.flow_deleted = (
  await ok(api.DELETE('/api/v1/automation/flows/{id}', { params: { path: { id: dependent.id } } }))
).ok;

// Files
const fileName = `workflow-${Date.now()}.txt`;
seen.file_written = (
  await ok(
    api.POST('/api/v1/automation/files', { body: { name: fileName, base64: Buffer.from('hello').toString('base64') } }),
  )
).ok;
seen.file_listed = (await ok(api.GET('/api/v1/automation/files'))).items.some((f) => f.name === fileName);
seen.file_content = Buffer.from(
  (await ok(api.GET('/api/v1/automation/files/content', { params: { query: { name: fileName } } }))).base64,
  'base64',
).toString();

// Synchronizer, settings, membership
seen.synchronizer_running = (await ok(api.GET('/api/v1/automation/synchronizer'))).running;
const logRetention = await ok(api.GET('/api/v1/settings/logs'));
seen.log_retention = (
  await ok(api.PUT('/api/v1/settings/logs', { body: { retention_days: logRetention.retention_days } }))
).retention_days;
const auditRetention = await ok(api.GET('/api/v1/settings/audit'));
seen.audit_retention = (
  await ok(api.PUT('/api/v1/settings/audit', { body: { retention_days: auditRetention.retention_days } }))
).retention_days;
seen.signed_in = (await ok(api.GET('/api/v1/account/status'))).authenticated;

// Audit: list, verify, export
seen.audit_actions = (await ok(api.GET('/api/v1/audit', { params: { query: { limit: 200 } } }))).items.map(
  (e) => e.action,
);
seen.audit_verified = (await ok(api.GET('/api/v1/audit/verify'))).ok;
const exported = await ok(
  api.GET('/api/v1/audit/export', { params: { query: { format: 'jsonl', action: 'profiles.create' } } }),
);
seen.export_count = exported.count;
seen.export_lines = Buffer.from(exported.content_base64, 'base64').toString().trim().split('\n').length;

// Logs: the list, and the end of the first file
const logs = await ok(api.GET('/api/v1/system/logs'));
const firstLog = logs.items[0];
if (firstLog) {
  const excerpt = await ok(
    api.GET('/api/v1/system/logs/{stream}/{file}', {
      params: { path: { stream: firstLog.stream, file: firstLog.file } },
    }),
  );
  seen.log_excerpt = typeof excerpt.text === 'string';
}
seen.log_files = logs.items.length;

// A missing profile: the error is typed by its code, details included.
const missing = await api.GET('/api/v1/profiles/{id}', { params: { path: { id: 'no-such-profile' } } });
if (missing.error?.error.code === 'resource.not_found') {
  const resource: string = missing.error.error.details.resource;
  seen.not_found = resource;
}
seen.profile_deleted = await done(api.DELETE('/api/v1/profiles/{id}', { params: { path: { id: profile.id } } }));

console.log(JSON.stringify(seen));
