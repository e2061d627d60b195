import {
  AuditedFailure,
  DenialCoalescer,
  failureDetails,
  isDenial,
  type Actor,
  type AuditContext,
  type Denial,
  type FailedRequest,
  type StoreClient,
} from '../../storage/client';
import type { ApiError } from '../shared/errors/api-error';
import { CLIENT_HEADER, clientSource } from '../shared/client-header';
import type { RequestContext } from '../../handlers/context';
import type { Route } from '../../handlers/implement';

/**
 * Where a request comes from, for the audit log: 'cli' or 'mcp' when LPA's own clients say so,
 * 'api' for everything else. Informational only (the actor is still the token), and no other value is taken
 * from the header, so a client cannot write what it likes into the log.
 */
export function requestSource(request: Request): string {
  return clientSource(request.headers.get(CLIENT_HEADER));
}

export function auditContext(ctx: RequestContext, action: AuditContext['action']): AuditContext {
  const actor: Actor = ctx.principal?.actor ?? { type: 'anonymous', id: null, label: 'anonymous' };
  return { actor, source: ctx.source, request_id: ctx.requestId, action, ...(ctx.via ? { via: ctx.via } : {}) };
}

/** Writes one denial's audit entry, coalesced with others of its client, reason and actor (storage/audit/denials.ts). */
export type DenialRecorder = (store: StoreClient, denial: Denial, now: number) => Promise<void>;

/** The local service's: coalesced in this process's memory, and what opens or closes a window written in one store call. */
export function coalescedHere(): DenialRecorder {
  const denials = new DenialCoalescer();
  return async (store, denial, now) => {
    const admitted = denials.admit(denial, now);
    if (admitted.length > 0) await store.system.recordDenials(admitted);
  };
}

/**
 * Every denial (401, 403, 429) and every failed change of an audited route is itself an audit
 * entry, in one store call at most. A change that fails in the store is audited there, in the
 * failing call's own batch (storage/dispatch.ts): its error is an `AuditedFailure` and nothing more
 * is written here. What fails before the store is written here after the fact, in its own call.
 * Denials pass through the coalescer first, so a flood of them writes a bounded number of entries
 * (those it admits at once share one call). A failure to write is logged and does not mask the
 * original error.
 */
export async function auditFailure(
  store: StoreClient,
  ctx: RequestContext,
  route: Route | undefined,
  error: ApiError,
  request: FailedRequest,
  recordDenial: DenialRecorder,
  now: number,
): Promise<void> {
  if (error instanceof AuditedFailure) return;
  const denied = isDenial(error.status);
  if (!denied && !route?.audit) return;
  try {
    if (!denied)
      return await store.system.recordFailure(
        { audit: auditContext(ctx, route!.audit!), request },
        error.code,
        error.status,
      );
    await recordDenial(
      store,
      { audit: auditContext(ctx, 'auth.denied'), code: error.code, details: failureDetails(request, error.status) },
      now,
    );
  } catch (thrown) {
    console.error('could not audit a failed request', thrown);
  }
}
