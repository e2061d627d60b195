import type { AuditContext, AuditSubject } from '../audit/entry';
import type { AuditResult } from '../audit/schema';
import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import type { StoreInfo } from './schema';

/** Facts about the store itself, and audit entries that record no change of their own. */
export class System {
  constructor(
    private readonly ctx: StoreContext,
    private readonly dbVersion: number,
  ) {}

  info(): StoreInfo {
    const row = first<{ value: string }>(this.ctx.db, `SELECT value FROM meta WHERE key = 'store_id'`);
    return {
      store_id: row!.value,
      db_version: this.dbVersion,
      vault: { state: this.ctx.vault.state, reason: this.ctx.vault.reason },
    };
  }

  /** Records a denial or a failed change, which has no transaction of its own to ride in. */
  record(audit: AuditContext, result: AuditResult, subject: AuditSubject, errorCode: string | null): void {
    this.ctx.db.transaction(() => this.ctx.audit.append(audit, result, subject, errorCode));
  }
}
