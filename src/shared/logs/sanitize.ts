/**
 * Redaction of secrets in log text. It runs twice: when LPA formats a line (so nothing secret is
 * written) and when an excerpt is served (so a line another program wrote cannot leak one either).
 * It errs on the side of hiding too much: a redacted harmless value costs less than a leaked token.
 */
export const REDACTED = '[redacted]';

/** A key names a secret when it contains one of these words... */
const SECRET_WORDS = [
  'token',
  'bearer',
  'passw',
  'passphrase',
  '(?<![A-Za-z])pass(?![A-Za-z])',
  'secret',
  'api[_-]?key',
  'authori[sz]ation',
  'cookie',
  'session',
  'totp',
  'credential',
  'private[_-]?key',
  'signature',
];
/** ...or is exactly one of these (`code` alone, not `error_code`). */
const SECRET_NAMES = [
  'code',
  'share[_-]code',
  'otp',
  'otp[_-]code',
  'auth[_-]code',
  'pin',
  'pwd',
  'pass',
  'key',
  'value',
  'ticket',
  'sig',
  // The variable sshpass reads its password from (`sshpass -e`).
  'sshpass',
];
const KEY_CHAR = '[A-Za-z0-9_.-]';
// Bounded, so that a long run of key characters costs linear time, not quadratic backtracking.
const SECRET_KEY = `(?:${KEY_CHAR}{0,48}(?:${SECRET_WORDS.join('|')})${KEY_CHAR}{0,48}|(?:${SECRET_NAMES.join('|')}))`;
const SECRET_KEY_ONLY = new RegExp(`^${SECRET_KEY}$`, 'i');

export function isSecretKey(key: string): boolean {
  return SECRET_KEY_ONLY.test(key);
}

/** A value after a secret key: a redaction marker, a quoted string or a bare word, maybe after an auth scheme (repeated or not). */
const VALUE = `(?:(?:Bearer|Basic|Digest) +)*(?:(?:lpa_)?\\[redacted\\]|"(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*'|[^\\s&,;"'}\\])]+)`;
/**
 * `:` or `=`, also percent-encoded once or twice (`password%3D…`, `password%253D…`), as in a URL
 * inside a URL; there the key may follow an escape too (`%26password%3D…`).
 */
const SEPARATOR = String.raw`\s*(?:[:=]|%(?:25)?3[ADad])\s*`;
/**
 * `key=value`, `key: value`, `"key":"value"` for a secret key, in any case (query strings, headers,
 * logfmt, JSON). Only secret keys match, so a harmless value (a URL, say) is still searched for
 * secrets inside it.
 */
const KEY_VALUE = new RegExp(
  `(?:(?<!${KEY_CHAR})|(?<=%[0-9A-Fa-f]{2}))(["']?)(${SECRET_KEY})\\1(?!${KEY_CHAR})(${SEPARATOR})(${VALUE})`,
  'gi',
);
/**
 * A word taken for an auth scheme, and what follows it: an HTTP token (`Bearer`, `Token`, `Negotiate`,
 * `AWS4-HMAC-SHA256`), then spaces, also in a URL (`%20`, `+`). `+` and `%20` end it, so that a
 * run of words splits one way only (no backtracking over the ways).
 */
const SCHEME = String.raw`[A-Za-z](?:[A-Za-z0-9!#$&'*.^_\`|~-]|%(?!20))*(?:\s|%20|\+)+`;
/** A logfmt field (`status=401`): a key, `=` and a value, where an Authorization header's words end. */
const FIELD = `${KEY_CHAR}+=[^\\s=]`;
/**
 * An Authorization header's value, whatever its scheme and however often the scheme is repeated
 * (`Authorization: Token X`, `authorization: bearer bearer X`): every word up to the credentials
 * counts as a scheme, but a field that follows them stays.
 */
const AUTHORIZATION = new RegExp(
  `((?<!${KEY_CHAR})(?:proxy-)?authori[sz]ation${SEPARATOR})(?:(?!${FIELD})${SCHEME})+(?!${FIELD}|\\[redacted\\])[^\\s&,;"'}\\])]+`,
  'gi',
);
/**
 * Credentials after an HTTP auth scheme, wherever they stand, also in a URL (`Bearer%20…`, `Bearer+…`);
 * a scheme word repeated (`bearer Bearer …`, a header pasted after its name) is skipped, not taken for the credentials.
 */
const AUTH_SCHEME =
  /\b(Bearer|Basic)((?:\s+|%20|\+)(?:Bearer|Basic)\b)*(\s+|%20|\+)(?!\[redacted\])[A-Za-z0-9\-._~+/]+=*/gi;
/** A command line's secret flag and its value after a space (`--token abc`, `--proxy-pass x`); `--token=abc` is KEY_VALUE's. */
const SECRET_FLAG = new RegExp(`(?<![^\\s"'])(--?${SECRET_KEY})(\\s+)(?!-)(${VALUE})`, 'gi');
/** sshpass's password: `-p` after its other options (`-e`, `-v`, `-P prompt`, `-f file`, `-d fd`), glued to it or not. */
const SSHPASS = new RegExp(
  `(\\bsshpass(?:\\s+-[fdP]\\s*\\S+|\\s+-[ehvV])*\\s+-p)(\\s*)(?!\\[redacted\\])${VALUE}`,
  'gi',
);
/** The password of a user given on a command line: `curl -u user:pw`, `--user user:pw`. */
const USER_PASSWORD = /(?<![^\s"'])(-u|--user)(\s+|=)([^\s:]*):(?!\[redacted\])\S+/g;
/** A password glued to its flag, as mysql and others take it: `-pPASS`. */
const GLUED_PASSWORD = /(?<![^\s"'])-p(?=[^\s-])(?!\[redacted\])\S+/g;
/** LPA's own tokens (`lpa_` + base64url). */
const LPA_TOKEN = /lpa_[A-Za-z0-9_-]{8,}/g;
/** The password of `scheme://user:password@host`. */
const URL_PASSWORD = /(\/\/[^\s/:@]+:)[^\s/@]+@/g;
/**
 * A long opaque blob (share codes, keys, base64 secrets): 32+ base64 characters mixing upper case,
 * lower case and digits. Hex digests and UUIDs (no upper case) and paths (they start with `/`) stay.
 */
const OPAQUE_BLOB =
  /(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/_-]*[A-Z])(?=[A-Za-z0-9+/_-]*[a-z])(?=[A-Za-z0-9+/_-]*[0-9])[A-Za-z0-9_-][A-Za-z0-9+/_-]{31,}={0,2}/g;

/**
 * A base32 secret (a TOTP seed as authenticator apps show it, `JBSWY3DPEHPK3PXP`): a word of 16 or
 * more characters of the RFC 4648 alphabet, upper case A–Z and 2–7, with optional `=` padding. A
 * word here stands between characters that are not letters, digits or `_+/=-`, so constant names
 * (`AUTH_TOKEN_INVALID`), hex (it has 0, 1, 8 or 9) and upper-case words shorter than 16 stay; an
 * upper-case word of 16+ letters alone is redacted too, the price of not telling it from a seed.
 */
const BASE32_SECRET = /(?<![A-Za-z0-9_+/=-])[A-Z2-7]{16,}=*(?![A-Za-z0-9_+/=-])/g;

export function sanitizeText(text: string): string {
  return text
    .replace(AUTHORIZATION, `$1${REDACTED}`)
    .replace(
      KEY_VALUE,
      (_, quote: string, key: string, separator: string, value: string) =>
        `${quote}${key}${quote}${separator}${value.startsWith('"') ? `"${REDACTED}"` : REDACTED}`,
    )
    .replace(
      AUTH_SCHEME,
      (_, scheme: string, repeated: string | undefined, space: string) =>
        `${scheme}${repeated ?? ''}${space}${REDACTED}`,
    )
    .replace(SECRET_FLAG, (_, flag: string, space: string) => `${flag}${space}${REDACTED}`)
    .replace(SSHPASS, `$1$2${REDACTED}`)
    .replace(USER_PASSWORD, `$1$2$3:${REDACTED}`)
    .replace(GLUED_PASSWORD, `-p${REDACTED}`)
    .replace(LPA_TOKEN, `lpa_${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(OPAQUE_BLOB, REDACTED)
    .replace(BASE32_SECRET, REDACTED);
}
