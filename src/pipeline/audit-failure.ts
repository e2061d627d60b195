import type { Actor, AuditContext } from '../../storage/audit/entry';
import type { ApiError } from '../errors/api-error';
import { CLIENT_HEADER, clientSource } from '../shared/client-header';
import type { AnyRoute, RequestContext } from '../routes/define';
import type { DenialCoalescer } from './denial-audit';

const DENIALS = new Set([401, 403, 429]);

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
  return { actor, source: ctx.source, request_id: ctx.requestId, action };
}

/** What the audit log may know of the failed request; `path` already without tokens (src/pipeline/redact.ts). */
export interface FailedRequest {
  method: string;
  path: string;
  now: number;
}

/**
 * Every denial (401, 403, 429) and every failed change of an audited route is itself an audit
 * entry. It is written after the fact, in its own transaction, because the change it records rolled
 * back. Denials pass through the coalescer first, so a flood of them writes a bounded number of
 * entries. A failure to write is logged and does not mask the original error.
 */
export async function auditFailure(
  ctx: RequestContext,
  route: AnyRoute | undefined,
  error: ApiError,
  request: FailedRequest,
  denials: DenialCoalescer,
): Promise<void> {
  const denied = DENIALS.has(error.status);
  if (!denied && !route?.audit) return;
  const audit = auditContext(ctx, denied ? 'auth.denied' : route!.audit);
  const details = { method: request.method, path: request.path.slice(0, 200), status: error.status, client_ip: ctx.clientIp };
  const entries = denied ? denials.admit({ audit, code: error.code, details }, request.now) : [{ audit, code: error.code, details }];
  try {
    await Promise.all(entries.map((entry) => ctx.store.system.record(entry.audit, denied ? 'denied' : 'error', { details: entry.details }, entry.code)));
  } catch (thrown) {
    console.error('could not audit a failed request', thrown);
  }
}
