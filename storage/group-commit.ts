import type { SqlDb } from './sql/sql';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit (decision 001). Work that arrives while a batch is waiting runs together in one
 * transaction, each unit in a savepoint of its own: concurrent writers share one commit (one fsync
 * under Bun and Deno) instead of paying one each, and a unit that throws rolls back only its own
 * savepoint. Each unit is settled only after its batch is in: under workerd the output gate holds
 * the answer until the commit is durable; under Bun and Deno the commit is synchronous.
 */
export class GroupCommit {
  private pending: Pending[] = [];

  constructor(private readonly db: SqlDb) {}

  /** Runs `work` (synchronous, as a transaction's callback must be) in the next batch; its value or its error. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length === 1) setTimeout(() => this.flush(), 0);
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let outcomes: { ok: boolean; value: unknown }[];
    try {
      outcomes = this.db.transaction(() =>
        batch.map(({ work }) => {
          try {
            return { ok: true, value: this.db.transaction(work) };
          } catch (error) {
            return { ok: false, value: error };
          }
        }),
      );
    } catch (error) {
      console.error('a group commit failed:', error);
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.value);
    });
  }
}
