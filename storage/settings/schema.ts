import { z } from 'zod';

export const LogRetention = z
  .object({ retention_days: z.int().min(1).max(365), kernel_retention_days: z.int().min(1).max(365) })
  .meta({ id: 'LogRetention' });
export type LogRetention = z.output<typeof LogRetention>;

/** The fields to change; a field left out keeps its value. */
export const LogRetentionPatch = LogRetention.partial().strict().meta({ id: 'LogRetentionPatch' });
export type LogRetentionPatch = z.output<typeof LogRetentionPatch>;

export const LOG_RETENTION_DEFAULTS: LogRetention = { retention_days: 30, kernel_retention_days: 14 };

export const AuditRetention = z.object({ retention_days: z.int().min(30).max(1095) }).meta({ id: 'AuditRetentionSetting' });
export type AuditRetention = z.output<typeof AuditRetention>;

/** The body that changes the audit retention. */
export const AuditRetentionWrite = AuditRetention.strict().meta({ id: 'AuditRetentionWrite' });

export const AUDIT_RETENTION_DEFAULTS: AuditRetention = { retention_days: 365 };
