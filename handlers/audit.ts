import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { queryInt } from '../src/schemas/query';
import { AUDIT_CATEGORIES } from '../storage/audit/actions';
import { withoutLinks } from '../storage/audit/record';
import { AuditRetention } from '../storage/settings/schema';
import { buildExport } from './audit-export';

/** Entries per list page when `limit` is not given. */
export const DEFAULT_LIST_LIMIT = 100;

const RESULTS = ['ok', 'denied', 'error'] as const;

const AuditEntry = z
  .object({
    seq: z.int(),
    id: z.string(),
    ts: z.int(),
    actor_type: z.string(),
    actor_id: z.string().nullable(),
    actor_label: z.string(),
    source: z.string(),
    action: z.string(),
    entity_type: z.string().nullable(),
    entity_id: z.string().nullable(),
    entity_no: z.int().nullable(),
    result: z.enum(RESULTS),
    error_code: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    request_id: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

/** The filters of list and export, with the spec's bounds; text filters must not be empty. */
const filters = {
  category: z.enum(AUDIT_CATEGORIES).optional(),
  from: queryInt(0).optional().meta({ description: 'Entries at or after this time (epoch ms).' }),
  to: queryInt(0).optional().meta({ description: 'Entries at or before this time (epoch ms).' }),
  action: z.string().min(1).max(100).optional().meta({ description: 'Exact action, e.g. `tokens.create`.' }),
  source: z.string().min(1).max(20).optional(),
  actor_type: z.string().min(1).max(20).optional(),
  entity_id: z.string().min(1).max(64).optional(),
  entity_no: queryInt(1).optional(),
  result: z.enum(RESULTS).optional(),
  search: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive substring of the text fields and details.' }),
};

const fromNotAfterTo = (q: { from?: number; to?: number }) => q.from === undefined || q.to === undefined || q.from <= q.to;
const FROM_AFTER_TO = { message: '`from` must not be after `to`', path: ['from'] };

const ListQuery = z
  .object({ ...filters, before_seq: queryInt(1).optional(), limit: queryInt(1, 1000).optional().meta({ description: `Default ${DEFAULT_LIST_LIMIT}.` }) })
  .strict()
  .refine(fromNotAfterTo, FROM_AFTER_TO);

const ExportQuery = z
  .object({ ...filters, format: z.enum(['csv', 'jsonl']) })
  .strict()
  .refine(fromNotAfterTo, FROM_AFTER_TO);

const AuditVerification = z
  .object({
    ok: z.boolean(),
    checked: z.int(),
    anchors: z.int(),
    first_bad_seq: z.int().nullable(),
    missing_anchor: z.string().nullable(),
  })
  .meta({ id: 'AuditVerification' });

const RetentionDays = AuditRetention.shape.retention_days;

export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit',
    tag: 'Audit',
    summary: 'Audit entries, newest first; pass next_before_seq as before_seq for the next page',
    scopes: ['audit:read'],
    query: ListQuery,
    response: z.object({ items: z.array(AuditEntry), next_before_seq: z.int().nullable() }),
    handler: async ({ ctx, query }) => {
      const { before_seq, limit, ...rest } = query;
      const page = await ctx.store.audit.list(rest, { before_seq }, limit ?? DEFAULT_LIST_LIMIT);
      return { items: page.items.map(withoutLinks), next_before_seq: page.next_seq };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit/verify',
    tag: 'Audit',
    summary: 'Recompute the hash chain from the retention checkpoint and check every daily anchor',
    scopes: ['audit:read'],
    response: AuditVerification,
    handler: ({ ctx }) => ctx.store.audit.verify(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit/export',
    tag: 'Audit',
    summary: 'Export matching entries, oldest first, as CSV or JSONL (each JSONL line carries hash and prev_hash)',
    scopes: ['audit:read'],
    query: ExportQuery,
    response: z.object({ file_name: z.string(), count: z.int(), content_base64: z.string() }),
    errors: ['audit.export_too_large'],
    handler: ({ ctx, query }) => {
      const { format, ...rest } = query;
      return buildExport(ctx.store, rest, format, Date.now());
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings/audit',
    tag: 'Settings',
    summary: 'Audit retention, with the number of entries kept and the time of the oldest',
    scopes: ['audit:read'],
    response: z.object({ retention_days: RetentionDays, entries: z.int(), oldest_ts: z.int().nullable() }).meta({ id: 'AuditRetention' }),
    handler: async ({ ctx }) => {
      const [retention, stats] = await Promise.all([ctx.store.settings.auditRetention(), ctx.store.audit.stats()]);
      return { retention_days: retention.retention_days, ...stats };
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v1/settings/audit',
    tag: 'Settings',
    summary: 'Change the audit retention; the daily job deletes older entries',
    scopes: ['settings:write'],
    body: z.object({ retention_days: RetentionDays }).strict(),
    response: z.object({ retention_days: RetentionDays }),
    audit: 'settings.audit_write',
    handler: ({ ctx, body, audit }) => ctx.store.settings.setAuditRetention(audit, body),
  }),
];
