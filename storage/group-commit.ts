import { ApiError } from '../src/shared/errors/api-error';
import { dispatch } from './dispatch';
import type { Invoke, Reply, StoreCall } from './surface';
import type { SqlDb } from './sql/sql';
import type { Store } from './store';
import type { ChainTip } from './audit/log';

interface Pending {
  call: StoreCall;
  resolve: (reply: Reply) => void;
}

/**
 * Group commit. Store calls that arrive while a batch is waiting run together in one transaction,
 * each in a savepoint of its own: concurrent writers share one commit (one fsync) instead of paying
 * one each, and a failing call rolls back only its own savepoint (its failure's audit entry, when
 * it carries one, is written in the batch after that rollback). Replies are released only after
 * the batch: under workerd the output gate holds them until the commit is durable; under Bun the
 * commit is synchronous.
 */
export function groupCommit(store: Store, db: SqlDb): Invoke {
  let pending: Pending[] = [];

  const flush = () => {
    const batch = pending;
    pending = [];
    let replies: Reply[];
    try {
      replies = db.transaction(() => batch.map(({ call }) => dispatch(store, call, (run) => db.transaction(run))));
    } catch (error) {
      console.error('a group commit failed:', error);
      replies = batch.map(() => ({ ok: false, error: new ApiError('internal').toWire(), audited: false }));
    }
    // The chain's tip after the batch, on every reply: a team shows it to the machine that asked
    // (src/teams/team-service.ts). Replies are released whatever happens to this read.
    let head: ChainTip | undefined;
    try {
      head = store.system.chainTip();
    } catch (error) {
      console.error('the audit chain head could not be read:', error);
    }
    batch.forEach((call, i) => call.resolve(head ? { ...replies[i]!, head } : replies[i]!));
  };

  return (call) =>
    new Promise<Reply>((resolve) => {
      pending.push({ call, resolve });
      if (pending.length === 1) setTimeout(flush, 0);
    });
}
