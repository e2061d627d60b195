import { ApiError } from '../src/shared/errors/api-error';
import type { Store } from './store';
import { isDeclared, type Reply, type StoreCall } from './surface';
import { isDenial, type FailureAudit } from './system/failure';

/**
 * Runs one call on the store, inside its Durable Object (the hops of a store call: storage/client.ts);
 * failures come back as data, never as a thrown error. A call the surface does not declare
 * (storage/surface.ts) is refused and logged, and nothing runs. `within` wraps the call itself (a
 * savepoint, under group commit), so a failing call is undone before its failure is audited (in the
 * enclosing transaction) and turned into a reply. A denial (an account refusing a profile, 403) is
 * left to the pipeline, whose coalescer decides whether it is written.
 */
export function dispatch(store: Store, call: StoreCall, within: <T>(run: () => T) => T = (run) => run()): Reply {
  if (!isDeclared(call)) {
    console.error(`store call refused: ${String(call.family)}.${String(call.method)} is not on the store's surface`);
    return { ok: false, error: new ApiError('internal').toWire(), audited: false };
  }
  const family = store[call.family] as unknown as Record<string, (...args: unknown[]) => unknown>;
  try {
    const value = within(() => family[call.method]!(...call.args));
    return { ok: true, value: call.as === 'json' ? JSON.stringify(value) : value };
  } catch (thrown) {
    if (!(thrown instanceof ApiError)) console.error(`store ${call.family}.${call.method} failed:`, thrown);
    const error = thrown instanceof ApiError ? thrown : new ApiError('internal');
    return {
      ok: false,
      error: error.toWire(),
      audited: call.failure !== undefined && !isDenial(error.status) && auditFailure(store, call.failure, error),
    };
  }
}

function auditFailure(store: Store, failure: FailureAudit, error: ApiError): boolean {
  try {
    store.system.recordFailure(failure, error.code, error.status);
    return true;
  } catch (thrown) {
    console.error('could not audit a failed store call', thrown);
    return false;
  }
}
