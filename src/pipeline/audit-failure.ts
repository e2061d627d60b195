import {
  failureDetails,
  isDenial,
  type Actor,
  type AuditContext,
  type FailedRequest,
  type StoreClient,
} from '../../storage/client';
import type { ApiError } from '../shared/errors/api-error';
import { CLIENT_HEADER, clientSource } from '../shared/client-header';
import type { FrontContext } from '../../handlers/context';
import type { Contract } from '../contracts/define';

/**
 * Where a request comes from, for the audit log: 'cli' or 'mcp' when LPA's own clients say so,
 * 'api' for everything else. Informational only (the actor is still the token), and no other value is taken
 * from the header, so a client cannot write what it likes into the log.
 */
export function requestSource(request: Request): string {
  return clientSource(request.headers.get(CLIENT_HEADER));
}

export function auditContext(ctx: FrontContext, action: AuditContext['action']): AuditContext {
  const actor: Actor = ctx.principal?.actor ?? { type: 'anonymous', id: null, label: 'anonymous' };
  return { actor, source: ctx.source, request_id: ctx.requestId, action, ...(ctx.via ? { via: ctx.via } : {}) };
}

/**
 * Every denial (401, 403, 429) and every failed change of an audited route is itself an audit
 * entry, written after the failure in a commit of its own (the failing change's savepoint is rolled
 * back by then). Denials are coalesced in the store first (storage/audit/denials.ts), so a flood of
 * them writes a bounded number of entries. A failure to write is logged and does not mask the
 * original error.
 */
export async function auditFailure(
  store: StoreClient,
  ctx: FrontContext,
  route: Contract | undefined,
  error: ApiError,
  request: FailedRequest,
): Promise<void> {
  const denied = isDenial(error.status);
  if (!denied && !route?.audit) return;
  try {
    if (!denied)
      return await store.system.recordFailure(
        { audit: auditContext(ctx, route!.audit!), request },
        error.code,
        error.status,
      );
    await store.system.recordDenial({
      audit: auditContext(ctx, 'auth.denied'),
      code: error.code,
      details: failureDetails(request, error.status),
    });
  } catch (thrown) {
    console.error('could not audit a failed request', thrown);
  }
}
