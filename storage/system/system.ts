import type { AuditContext, AuditSubject } from '../audit/entry';
import { DenialCoalescer, type Denial } from '../audit/denials';
import type { AuditResult } from '../audit/schema';
import type { StoreContext } from '../context';
import type { ChainTip } from '../audit/log';
import { first } from '../sql/sql';
import { failureDetails, type FailureAudit } from './failure';
import type { StoreFacts, StoreInfo } from './schema';

/** Facts about the store itself, and audit entries that record no change of their own. */
export class System {
  /** Denial windows of this store, for `recordDenial`: per store, never in module state. */
  private readonly denials = new DenialCoalescer();

  constructor(
    private readonly ctx: StoreContext,
    private readonly dbVersion: number,
  ) {}

  info(): StoreInfo {
    return { ...this.facts(), vault: { state: this.ctx.vault.state, reason: this.ctx.vault.reason } };
  }

  /**
   * `db_version` is what the migrations at start left, `store_id` is written once, when the store is
   * made: neither changes while the service runs (a store restarted under a running worker runs the
   * same code over the same database). The vault's state can: a restart may find vault.key again.
   */
  facts(): StoreFacts {
    const row = first<{ value: string }>(this.ctx.db, `SELECT value FROM meta WHERE key = 'store_id'`);
    return { store_id: row!.value, db_version: this.dbVersion };
  }

  /** The audit chain's newest entry (or the checkpoint it continues from): seq and hash. */
  chainTip(): ChainTip {
    const { seq, hash } = this.ctx.audit.head();
    return { seq, hash };
  }

  /** Records a denial or a failed change, which has no transaction of its own to ride in. */
  record(audit: AuditContext, result: AuditResult, subject: AuditSubject, errorCode: string | null): void {
    this.ctx.db.transaction(() => this.ctx.audit.append(audit, result, subject, errorCode));
  }

  /** One denial (401, 403, 429), coalesced with others of its client, reason and actor (../audit/denials.ts): the entries it admits. */
  recordDenial(denial: Denial): void {
    for (const admitted of this.denials.admit(denial, this.ctx.now()))
      this.record(admitted.audit, 'denied', { details: admitted.details }, admitted.code);
  }

  /** The entry of a failed change of an audited route, written by the pipeline once the change is rolled back. */
  recordFailure(failure: FailureAudit, errorCode: string, status: number): void {
    this.record(failure.audit, 'error', { details: failureDetails(failure.request, status) }, errorCode);
  }
}
