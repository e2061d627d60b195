import { Secret, TOTP, URI } from 'otpauth';

/** Bounds on what a stored 2FA secret may ask for; outside them no authenticator app agrees with us. */
export const DIGITS = { min: 6, max: 10 };
export const PERIOD_S = { min: 1, max: 3600 };
const ALGORITHMS = new Set(['SHA1', 'SHA256', 'SHA512']);

/**
 * A 2FA secret as users paste it: a base32 key (spaces and lower case tolerated; RFC 6238 defaults
 * SHA-1, 30 s, 6 digits) or an `otpauth://totp/…` URI whose digits, period and algorithm are honoured.
 * Throws a TypeError saying why when the secret cannot produce codes.
 */
export function parseTotp(secret: string): TOTP {
  const text = secret.trim();
  const totp = /^otpauth:/i.test(text)
    ? fromUri(text)
    : new TOTP({ secret: Secret.fromBase32(text.replace(/[\s-]/g, '')) });
  if (totp.secret.bytes.length === 0) throw new TypeError('The secret is empty');
  if (totp.digits < DIGITS.min || totp.digits > DIGITS.max)
    throw new TypeError(`digits must be ${DIGITS.min}..${DIGITS.max}`);
  if (totp.period < PERIOD_S.min || totp.period > PERIOD_S.max)
    throw new TypeError(`period must be ${PERIOD_S.min}..${PERIOD_S.max} seconds`);
  if (!ALGORITHMS.has(totp.algorithm)) throw new TypeError('algorithm must be SHA1, SHA256 or SHA512');
  return totp;
}

function fromUri(uri: string): TOTP {
  const otp = URI.parse(uri);
  if (!(otp instanceof TOTP)) throw new TypeError('Only otpauth://totp/ URIs are accepted');
  return otp;
}

/** Why a secret is unusable, or null when it produces codes. */
export function totpProblem(secret: string): string | null {
  try {
    parseTotp(secret);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'Unusable 2FA secret';
  }
}

/** The code for `timeMs` (epoch milliseconds) and the whole seconds it stays valid. Pure: no clock. */
export function totpAt(secret: string, timeMs: number) {
  const totp = parseTotp(secret);
  const periodMs = totp.period * 1000;
  return {
    code: totp.generate({ timestamp: timeMs }),
    remaining_s: Math.ceil((periodMs - (timeMs % periodMs)) / 1000),
  };
}
