import { AuditLog } from './audit/log';
import type { AuditContext, AuditSubject } from './audit/entry';
import { AuditProofs, type ProofKeys } from './audit/proofs';
import type { SqlDb } from './sql/sql';
import type { Vault } from './vault';

/** What every storage module shares: the database, the clock, the audit chain, its proofs and the vault. */
export class StoreContext {
  readonly audit: AuditLog;
  /** The audit's keys and seal record, kept outside the database. */
  readonly proofs: AuditProofs;

  constructor(
    readonly db: SqlDb,
    readonly now: () => number,
    readonly vault: Vault,
    proofKeys: ProofKeys,
  ) {
    this.audit = new AuditLog(db, now);
    this.proofs = new AuditProofs(db, proofKeys);
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
