import type { StoreContext } from '../context';
import { first } from '../sql/sql';
import { AccountStatus, type CachedAccountStatus } from './schema';

/**
 * The last account status the membership server confirmed, kept so that LPA knows the account while
 * the server cannot be reached, until `verifiedUntil`, also across restarts. Saving it is not audited:
 * it records what a server said, not a change anyone made, and happens on every status check.
 */
export class MembershipCache {
  constructor(private readonly ctx: StoreContext) {}

  /** The cached confirmation from this server; a confirmation from another URL does not count. */
  read(url: string): CachedAccountStatus | null {
    const row = first<{ status: string; verified_until: number }>(
      this.ctx.db,
      'SELECT status, verified_until FROM account_status_cache WHERE id = 1 AND url = ?',
      url,
    );
    if (!row) return null;
    const status = AccountStatus.safeParse(JSON.parse(row.status));
    return { status: status.success ? status.data : null, verified_until: row.verified_until };
  }

  /** Saves the status exactly as the membership server confirmed it. */
  save(url: string, status: AccountStatus, verifiedUntil: number): void {
    this.ctx.db.run(
      `INSERT INTO account_status_cache (id, url, status, verified_until, saved_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, status = excluded.status,
         verified_until = excluded.verified_until, saved_at = excluded.saved_at`,
      url,
      JSON.stringify(status),
      verifiedUntil,
      this.ctx.now(),
    );
  }
}
