import { ERROR_CATALOG, type ErrorCode } from './catalog';

export type ErrorDetails = Record<string, unknown>;

/** The one exception of LPA: it carries its code, and the catalogue gives it its status. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly details: ErrorDetails = {},
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = 'ApiError';
    this.status = ERROR_CATALOG[code].status;
  }
}
