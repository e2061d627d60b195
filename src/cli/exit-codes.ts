import type { ApiCallError } from './client';

/**
 * The exit status of `lpa`, following the HTTP outcome so that a script can tell "not found" from
 * "not allowed" without parsing stderr. docs/cli.md#exit-codes documents this table.
 */
export const EXIT = {
  ok: 0,
  /** A verification came out not ok, or local work failed (a file unreadable, a value missing). */
  failed: 1,
  /** Commander's usage errors: unknown command, missing option, value out of bounds. */
  usage: 2,
  unreachable: 3,
  /** 400, 413, 415, 421: the service refused the request as it was sent. */
  invalid: 4,
  /** 401, or no token at all. */
  unauthenticated: 5,
  /** 403: a scope, the admin session, the origin or the membership does not allow it. */
  forbidden: 6,
  notFound: 7,
  conflict: 8,
  throttled: 9,
  /** 5xx, or an answer that is not LPA's. */
  serviceError: 10,
} as const;

const BY_STATUS: Record<number, number> = {
  401: EXIT.unauthenticated,
  403: EXIT.forbidden,
  404: EXIT.notFound,
  409: EXIT.conflict,
  429: EXIT.throttled,
};

export function exitCodeFor(error: ApiCallError): number {
  if (error.status === 0) {
    if (error.code === 'cli.unreachable') return EXIT.unreachable;
    return error.code === 'cli.token_missing' ? EXIT.unauthenticated : EXIT.failed;
  }
  return BY_STATUS[error.status] ?? (error.status >= 400 && error.status < 500 ? EXIT.invalid : EXIT.serviceError);
}
