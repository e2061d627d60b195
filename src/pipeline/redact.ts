import { REDACTED } from '../shared/logs/sanitize';
import { ADMIN_TOKEN_SHAPE } from '../shared/admin-token';
import { sha256Hex } from '../shared/crypto';

/**
 * Token-shaped: a short lower- or upper-case word, `_`, then at least 16 token characters with a
 * digit among them: LPA's issued tokens (`lpa_` + base64url), admin tokens such as `adm_<hex>`.
 * A long file name (`my_holiday_pictures`) has no digit run of that shape and stays readable.
 */
const TOKEN_SHAPED = /(?<![A-Za-z0-9])([A-Za-z]{2,8})_(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{16,}/g;
/** Shorter bearer strings are no token of LPA's, and would match harmless text. */
const MIN_BEARER = 8;
/** The pieces of a path or query that a token could be on its own. */
const WORD = /[^/?&=;,\s]+/g;

export interface KnownSecrets {
  /** SHA-256 (hex) of the configured admin token, whose plain text the worker never holds. */
  adminTokenSha256: string;
  /** The bearer token this request sent, whatever its shape. */
  bearer: string | null;
}

function decoded(word: string): string {
  try {
    return decodeURIComponent(word);
  } catch {
    return word;
  }
}

/**
 * Takes every token out of request text (a path, a query) before it is written to the audit log or
 * the `api` log: the configured admin token (recognised by its hash), the request's own bearer
 * token, and anything token-shaped. Where it was sent does not matter, the URL path included.
 */
export function redactTokens(text: string, secrets: KnownSecrets): string {
  const words = text.replace(WORD, (word) => {
    const plain = decoded(word);
    // Hashing every word of every logged path was the largest cost of a small request; only a word
    // of the admin token's shape can be it.
    const admin = ADMIN_TOKEN_SHAPE.test(plain) && sha256Hex(plain) === secrets.adminTokenSha256;
    const secret = admin || (secrets.bearer !== null && secrets.bearer.length >= MIN_BEARER && plain.includes(secrets.bearer));
    return secret ? REDACTED : word;
  });
  // The prefix stays: it tells what kind of token was sent, and is no secret.
  return words.replace(TOKEN_SHAPED, `$1_${REDACTED}`);
}
