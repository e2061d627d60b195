import type { AuditContext } from '../audit/entry';

/** The statuses of a denial: audited as `auth.denied`, through the pipeline's coalescer (storage/audit/denials.ts). */
export const isDenial = (status: number) => status === 401 || status === 403 || status === 429;

/** What the audit log may know of a failed request; `path` already without tokens (src/pipeline/redact.ts). */
export interface FailedRequest {
  method: string;
  path: string;
  client_ip: string;
}

/** What the failure entry of an audited route needs besides the error: who acted, and the request. */
export interface FailureAudit {
  audit: AuditContext;
  request: FailedRequest;
}

/** The details of a denial's or a failure's audit entry, the same wherever it is written. */
export function failureDetails(request: FailedRequest, status: number) {
  return { method: request.method, path: request.path.slice(0, 200), status, client_ip: request.client_ip };
}
