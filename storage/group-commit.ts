import { ApiError } from '../src/errors/api-error';
import { dispatch, type Invoke, type Reply } from './dispatch';
import type { SqlDb } from './sql/sql';
import type { Store } from './store';

interface Pending {
  family: string;
  method: string;
  args: unknown[];
  resolve: (reply: Reply) => void;
}

/**
 * Group commit. Store calls that arrive while a batch is waiting run together in one transaction,
 * each in a savepoint of its own: concurrent writers share one commit (one fsync) instead of paying
 * one each, and a failing call rolls back only its own savepoint. Replies are released only after
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
      replies = db.transaction(() => batch.map((c) => dispatch(store, c.family, c.method, c.args, (call) => db.transaction(call))));
    } catch (error) {
      console.error('a group commit failed:', error);
      replies = batch.map(() => ({ ok: false, error: new ApiError('internal').toWire() }));
    }
    batch.forEach((call, i) => call.resolve(replies[i]!));
  };

  return (family, method, args) =>
    new Promise<Reply>((resolve) => {
      pending.push({ family, method, args, resolve });
      if (pending.length === 1) setTimeout(flush, 0);
    });
}
