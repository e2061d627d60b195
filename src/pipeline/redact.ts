import { REDACTED } from '../shared/logs/sanitize';
import { sha256Hex } from '../shared/crypto';
import { fingerprintMatches, type AdminTokenFingerprint } from '../shared/admin-token';

/**
 * Token-shaped: a short lower- or upper-case word, `_`, then at least 16 token characters with a
 * digit among them: LPA's issued tokens (`lpa_` + base64url), admin tokens such as `adm_<hex>`.
 * A long file name (`my_holiday_pictures`) has no digit run of that shape and stays readable.
 */
const TOKEN_SHAPED = /(?<![A-Za-z0-9])([A-Za-z]{2,8})_([A-Za-z0-9_-]{16,})/g;
// The digit is looked for in the run once it is matched whole, not by a lookahead at each place a
// run may start: that read `ab_ab_ab_…` again from each `_`, and 64 KB of it took a second.
const redactTokenShaped = (run: string, word: string, rest: string) =>
  /[0-9]/.test(rest) ? `${word}_${REDACTED}` : run;
/** LPA's issued tokens (`lpa_` + base64url) wherever they stand, a letter or digit before them too. */
const ISSUED_TOKEN = /lpa_[A-Za-z0-9_-]{16,}/g;
/** A run's DevTools endpoint (src/host/node/browsers): what follows `/devtools/` is the run's secret, whatever it looks like. */
const DEVTOOLS_SECRET = /(\/devtools\/)[^/?#]+/g;
/** Shorter bearer strings are no token of LPA's, and would match harmless text. */
const MIN_BEARER = 8;
/** A run of the characters an admin token is made of (src/shared/admin-token.ts). */
const ADMIN_TOKEN_RUN = /[A-Za-z0-9\-._~+/]+/g;
/** Percent-encoding applied more than this often is left as it is (and a token in it stays hidden by its shape or not at all). */
const DECODE_ROUNDS = 3;

export interface KnownSecrets {
  /** SHA-256 (hex) of the configured admin token, whose plain text the worker never holds. */
  adminTokenSha256: string;
  /** The admin token's length: it is looked for at every position of a run of its characters. */
  adminTokenLength: number;
  /** Which of those positions are worth hashing; null: every one. */
  adminTokenFingerprint: AdminTokenFingerprint | null;
  /** The bearer token this request sent, whatever its shape. */
  bearer: string | null;
}

/** Every valid `%XX` escape decoded, up to DECODE_ROUNDS times (`%255F` → `%5F` → `_`); a broken escape stays. */
function percentDecoded(text: string): string {
  let plain = text;
  for (let round = 0; round < DECODE_ROUNDS && plain.includes('%'); round++) {
    const next = plain.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
      try {
        return decodeURIComponent(escapes);
      } catch {
        return escapes;
      }
    });
    if (next === plain) break;
    plain = next;
  }
  return plain;
}

/**
 * The admin token wherever it stands, as only its hash is known: each window of its length in a run
 * of its characters whose fingerprint matches (every window, when none was handed over) is hashed.
 * A path without such a run (most are shorter than the token) costs nothing.
 */
function withoutAdminToken(text: string, secrets: KnownSecrets): string {
  const { adminTokenSha256, adminTokenLength: length, adminTokenFingerprint } = secrets;
  if (length <= 0) return text;
  return text.replace(ADMIN_TOKEN_RUN, (run) => {
    const starts = adminTokenFingerprint
      ? fingerprintMatches(run, length, adminTokenFingerprint)
      : everyWindow(run, length);
    for (const at of starts) {
      if (sha256Hex(run.slice(at, at + length)) === adminTokenSha256) {
        return `${run.slice(0, at)}${REDACTED}${withoutAdminToken(run.slice(at + length), secrets)}`;
      }
    }
    return run;
  });
}

function* everyWindow(run: string, length: number) {
  for (let at = 0; at + length <= run.length; at++) yield at;
}

/**
 * Takes every token out of request text (a path, a query) before it is written to the audit log or
 * the `api` log: the configured admin token (recognised by its hash), the request's own bearer
 * token, a run's DevTools endpoint secret, and anything token-shaped, wherever they stand and however often (up to DECODE_ROUNDS)
 * they were percent-encoded. Text whose decoding hides nothing is kept as it was sent; text with a
 * token found only once decoded is given decoded.
 */
export function redactTokens(text: string, secrets: KnownSecrets): string {
  // As sent first: an escape just before a token (`%2` + `F…`) would otherwise hide it from the decoded pass.
  const sent = withoutTokens(text, secrets);
  const plain = percentDecoded(sent);
  if (plain === sent) return sent;
  const decoded = withoutTokens(plain, secrets);
  return decoded === plain ? sent : decoded;
}

function withoutTokens(text: string, secrets: KnownSecrets): string {
  const { bearer } = secrets;
  const out = bearer !== null && bearer.length >= MIN_BEARER ? text.split(bearer).join(REDACTED) : text;
  // The prefix stays: it tells what kind of token was sent, and is no secret.
  return withoutAdminToken(out, secrets)
    .replace(DEVTOOLS_SECRET, `$1${REDACTED}`)
    .replace(ISSUED_TOKEN, `lpa_${REDACTED}`)
    .replace(TOKEN_SHAPED, redactTokenShaped);
}
