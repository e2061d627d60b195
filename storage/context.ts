import { AuditLog } from './audit/log';
import type { AuditContext, AuditSubject } from './audit/entry';
import type { SqlDb } from './sql/sql';
import type { Vault } from './vault';

/** What every storage module shares: the database, the clock, the audit chain and the vault. */
export class StoreContext {
  readonly audit: AuditLog;

  constructor(
    readonly db: SqlDb,
    readonly now: () => number,
    readonly vault: Vault,
    /** Key material for HMACs (audit anchors), kept outside the database. */
    readonly auditKey: Uint8Array | null,
  ) {
    this.audit = new AuditLog(db, now, auditKey);
  }

  /**
   * Runs a change and appends its audit entry in one synchronous transaction: there is no change
   * without its entry, and no entry for a change that rolled back. A secret read goes through here
   * too, so it fails closed when its entry cannot be written.
   */
  change<T>(audit: AuditContext, fn: () => T, subject: (value: T) => AuditSubject = () => ({})): T {
    return this.db.transaction(() => {
      const value = fn();
      this.audit.append(audit, 'ok', subject(value));
      return value;
    });
  }
}
