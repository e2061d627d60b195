import { z } from 'zod';
import { ApiError } from './api-error';
import { ERROR_CATALOG, type ErrorCode } from './catalog';

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z
        .enum(Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]])
        .meta({ id: 'ErrorCode', description: 'Stable machine-readable code; see the catalogue (`x-error-catalog`).' }),
      message: z.string().meta({ description: 'Text for people; do not branch on it.' }),
      details: z.record(z.string(), z.unknown()),
    }),
    request_id: z.string(),
  })
  .meta({ id: 'ErrorEnvelope' });

/** Any thrown value becomes an envelope; what is not an ApiError is hidden behind `internal`. */
export function toApiError(thrown: unknown): ApiError {
  return thrown instanceof ApiError ? thrown : new ApiError('internal');
}

export function errorBody(error: ApiError, requestId: string) {
  return {
    error: { code: error.code, message: error.message || ERROR_CATALOG[error.code].message, details: error.details },
    request_id: requestId,
  };
}
