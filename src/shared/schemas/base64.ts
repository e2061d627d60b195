import { z } from 'zod';
import { isStrictBase64 } from '../base64';

/**
 * Standard base64 with padding in its one canonical form (RFC 4648 §4; the bits the padding leaves
 * over are zero), exactly what the strict decoder takes. For the document only: the decoder checks
 * it, since a regular expression over megabytes risks the engine's backtracking stack.
 */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$';

/** Bytes as base64 in an answer. */
export const Base64Out = z.string().meta({ contentEncoding: 'base64' });

/** Bytes as base64 in a request, at most `maxChars` characters, refused unless canonical. */
export const base64In = (maxChars: number) =>
  z
    .string()
    .max(maxChars)
    .refine(isStrictBase64, 'Expected standard base64 with padding')
    .meta({ contentEncoding: 'base64', pattern: BASE64_PATTERN });
