import { z } from 'zod';
import { fromBase64, isStrictBase64, toBase64 } from '../base64';

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

/** Bytes that cross JSON as base64 (the host port's wire): decoding refuses all but the canonical form. */
export const Base64Bytes = z.codec(
  z.string(),
  z.custom<Uint8Array>((value) => value instanceof Uint8Array),
  {
    decode: (text, payload) => {
      try {
        return fromBase64(text);
      } catch {
        payload.issues.push({ code: 'custom', message: 'Expected standard base64 with padding', input: text });
        return z.NEVER;
      }
    },
    encode: (bytes) => toBase64(bytes),
  },
);
