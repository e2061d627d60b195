import { z } from 'zod';
import { AuditStats } from '../audit/schema';

export const LogRetention = z
  .object({ retention_days: z.int().min(1).max(365), kernel_retention_days: z.int().min(1).max(365) })
  .meta({ id: 'LogRetention' });
export type LogRetention = z.output<typeof LogRetention>;

/** The fields to change; a field left out keeps its value. */
export const LogRetentionPatch = LogRetention.partial().strict().meta({ id: 'LogRetentionPatch' });
export type LogRetentionPatch = z.output<typeof LogRetentionPatch>;

export const LOG_RETENTION_DEFAULTS: LogRetention = { retention_days: 30, kernel_retention_days: 14 };

export const AuditRetentionSetting = z
  .object({ retention_days: z.int().min(30).max(1095) })
  .meta({ id: 'AuditRetentionSetting' });
export type AuditRetentionSetting = z.output<typeof AuditRetentionSetting>;

/** The body that changes the audit retention. */
export const AuditRetentionWrite = AuditRetentionSetting.strict().meta({ id: 'AuditRetentionWrite' });

export const AUDIT_RETENTION_DEFAULTS: AuditRetentionSetting = { retention_days: 365 };

/** The audit retention as it is read: the setting, the number of entries kept and the time of the oldest. */
export const AuditRetention = AuditRetentionSetting.extend(AuditStats.shape).meta({ id: 'AuditRetention' });
export type AuditRetention = z.output<typeof AuditRetention>;
