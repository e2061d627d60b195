import type { HostPort } from '../../src/host/port';
import type { Store } from '../store';

/** What one sealing did: the day it sealed, if any, or why it refused. */
export interface SealReport {
  sealed: string[];
  refused?: string;
}

/**
 * Seals the newest finished day, if it is due (storage/audit/anchors.ts): the host appends the seal
 * to the seal record and fsyncs it, and only then does the store commit the anchor. Runs in the
 * daily job and at every start, so a day is sealed even when the service was stopped at midnight.
 */
export async function sealFinishedDay(store: Store, host: HostPort, now: number): Promise<SealReport> {
  const due = store.audit.sealDue(now);
  if (due === null) return { sealed: [] };
  if ('refused' in due) return { sealed: [], refused: due.refused };
  try {
    await host.seals.append(due);
  } catch (error) {
    // The host refuses a second seal of a day (409): the anchor is not written over the first one.
    return { sealed: [], refused: `the seal record did not take ${due.day}: ${String(error)}` };
  }
  return store.audit.commitSeal(due, now)
    ? { sealed: [due.day] }
    : { sealed: [], refused: `the chain changed before the anchor of ${due.day} could be written` };
}
