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

/** `flows.has_dependents` → `FlowsHasDependentsError`: the component name of a code's envelope. */
const componentName = (code: string) =>
  `${code
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Error`;

/**
 * The envelope of each code, with `code` fixed and `details` that code's schema: one named
 * component per code in the OpenAPI document, so a client narrows `details` by branching on `code`.
 */
const CODE_ENVELOPES = new Map<ErrorCode, z.ZodType>(
  (Object.keys(ERROR_CATALOG) as ErrorCode[]).map((code) => [
    code,
    ErrorEnvelope.extend({
      error: ErrorEnvelope.shape.error.extend({ code: z.literal(code), details: ERROR_CATALOG[code].details.strict() }),
    }).meta({ id: componentName(code) }),
  ]),
);

export const codeEnvelope = (code: ErrorCode): z.ZodType => CODE_ENVELOPES.get(code)!;

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
