import type { Audit } from '../audit/audit';
import type { AuditContext } from '../audit/entry';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import {
  AUDIT_RETENTION_DEFAULTS,
  LOG_RETENTION_DEFAULTS,
  type AuditRetention,
  type AuditRetentionSetting,
  type LogRetention,
  type LogRetentionPatch,
} from './schema';

/** Settings documents, stored as JSON under a key and merged over their defaults on read. */
export class Settings {
  constructor(
    private readonly ctx: StoreContext,
    private readonly audit: Audit,
  ) {}

  logRetention(): LogRetention {
    return { ...LOG_RETENTION_DEFAULTS, ...this.read<LogRetention>('logs') };
  }

  setLogRetention(audit: AuditContext, patch: LogRetentionPatch): LogRetention {
    return this.ctx.change(
      audit,
      () => {
        const next = { ...this.logRetention(), ...patch };
        this.write('logs', next);
        return next;
      },
      (next) => ({ entity_type: 'settings', entity_id: 'logs', details: { ...next } }),
    );
  }

  auditRetention(): AuditRetentionSetting {
    return { ...AUDIT_RETENTION_DEFAULTS, ...this.read<AuditRetentionSetting>('audit') };
  }

  /** The audit retention with what the log holds now: `GET /api/v1/settings/audit` in one store call. */
  auditRetentionReport(): AuditRetention {
    return { retention_days: this.auditRetention().retention_days, ...this.audit.stats() };
  }

  setAuditRetention(audit: AuditContext, next: AuditRetentionSetting): AuditRetentionSetting {
    const previous = this.auditRetention().retention_days;
    this.ctx.change(
      audit,
      () => this.write('audit', next),
      () => ({
        entity_type: 'settings',
        entity_id: 'audit',
        details: { retention_days: next.retention_days, previous },
      }),
    );
    return next;
  }

  private read<T>(key: string): Partial<T> {
    const row = first<{ value: string }>(this.ctx.db, 'SELECT value FROM settings WHERE key = ?', key);
    return row ? (JSON.parse(row.value) as Partial<T>) : {};
  }

  private write(key: string, value: unknown): void {
    this.ctx.db.run(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      key,
      JSON.stringify(value),
    );
  }
}
