import { z } from 'zod';
import { defineRoute } from '../src/routes/define';
import { AuditExportQuery, AuditListQuery, DEFAULT_LIST_LIMIT } from '../storage/audit/filters';
import { withoutLinks } from '../storage/audit/record';
import { AuditCheckpoint, AuditExport, AuditList, AuditPublicKey, AuditStats, AuditVerification } from '../storage/audit/schema';
import { AuditRetention, AuditRetentionWrite } from '../storage/settings/schema';
import { exportAudit } from './audit-export';

const RetentionDays = AuditRetention.shape.retention_days;

export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit',
    tag: 'Audit',
    summary: 'Audit entries, newest first; pass next_before_seq as before_seq for the next page',
    scopes: ['audit:read'],
    query: AuditListQuery,
    response: AuditList,
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
    description:
      'Checks the entries up to the newest one when the request arrived (entries written meanwhile are left to the next verify), ' +
      'in short store calls: other requests are served while a long log is verified.',
    scopes: ['audit:read'],
    response: AuditVerification,
    handler: async ({ ctx }) => {
      let step = await ctx.store.audit.verifySlice(null);
      while (!step.done) {
        // One turn of the event loop first: requests that arrived during the slice are served
        // before the next slice, not queued behind it (the Worker and the store share one isolate).
        await new Promise((resolve) => setTimeout(resolve, 0));
        step = await ctx.store.audit.verifySlice(step.cursor);
      }
      return step.result;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit/checkpoint',
    tag: 'Audit',
    summary: 'The head of the chain, signed now with the audit signing key (Ed25519); keep it elsewhere to prove later that nothing before it was rewritten',
    description:
      '`signature` is the base64 Ed25519 signature over the UTF-8 bytes of the canonical JSON (keys sorted, no spaces) of `{hash, seq, store_id, ts}`; ' +
      '`ts` is when it was signed. Verify it with the key of `GET /api/v1/audit/public-key`, or offline with `lpa audit verify-file --checkpoint`.',
    scopes: ['audit:read'],
    response: AuditCheckpoint,
    errors: ['audit.signing_key_missing'],
    handler: ({ ctx }) => ctx.store.audit.checkpoint(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit/public-key',
    tag: 'Audit',
    summary: 'The Ed25519 public key that verifies anchors and checkpoints; key_id is the hex SHA-256 of its 32 raw bytes',
    scopes: ['audit:read'],
    response: AuditPublicKey,
    errors: ['audit.signing_key_missing'],
    handler: ({ ctx }) => ctx.store.audit.publicKey(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/audit/export',
    tag: 'Audit',
    summary: 'Export matching entries, oldest first, as CSV or JSONL (each JSONL line carries category, v, hash, prev_hash and, ending a sealed day, its signed anchor; the last JSONL line is the head the store signs over the file)',
    scopes: ['audit:read'],
    query: AuditExportQuery,
    response: AuditExport,
    errors: ['audit.export_too_large', 'audit.export_busy'],
    handler: ({ ctx, query }) => {
      const { format, ...rest } = query;
      return exportAudit(ctx.store, rest, format, Date.now());
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings/audit',
    tag: 'Settings',
    summary: 'Audit retention, with the number of entries kept and the time of the oldest',
    scopes: ['audit:read'],
    response: z.object({ retention_days: RetentionDays, ...AuditStats.shape }).meta({ id: 'AuditRetention' }),
    handler: ({ ctx }) => ctx.store.settings.auditRetentionReport(),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v1/settings/audit',
    tag: 'Settings',
    summary: 'Change the audit retention; the daily job deletes older entries',
    scopes: ['settings:write'],
    body: AuditRetentionWrite,
    response: AuditRetention,
    audit: 'settings.audit_write',
    handler: ({ ctx, body, audit }) => ctx.store.settings.setAuditRetention(audit, body),
  }),
];
