import { randomInt } from 'node:crypto';

/** The longest bearer token the service looks at; a longer one is refused unread. */
export const MAX_TOKEN_LENGTH = 512;

/**
 * What an admin token may be: 16..MAX_TOKEN_LENGTH characters of `A-Za-z0-9-._~+/`. The launcher
 * refuses any other (from LPA_ADMIN_TOKEN or the admin-token file), so the redaction of logged paths
 * hashes only runs of these characters (src/pipeline/redact.ts).
 */
export const ADMIN_TOKEN_SHAPE = new RegExp(`^[A-Za-z0-9\\-._~+/]{16,${MAX_TOKEN_LENGTH}}$`);

/**
 * A cheap first check of the admin token in logged text, which the worker may hold where it holds
 * the token's SHA-256: a polynomial hash of the token's characters modulo a prime near 2^24, in a
 * base the launcher draws at random. It rolls along a run of token characters in one pass, so
 * only a window whose fingerprint matches (about one in 16.7 million others) is hashed with
 * SHA-256; hashing every window cost ~2 µs a character, ~110 ms for a 60 KB path. It tells no more
 * about the token than the SHA-256 already does to whoever reads the config.
 */
export interface AdminTokenFingerprint {
  base: number;
  value: number;
}

const MODULUS = 16_777_213;

export function adminTokenFingerprint(token: string, base = randomInt(2, MODULUS - 1)): AdminTokenFingerprint {
  let value = 0;
  for (let i = 0; i < token.length; i++) value = (value * base + token.charCodeAt(i)) % MODULUS;
  return { base, value };
}

/** `base:value`, as the launcher hands it over in LPA_ADMIN_TOKEN_FINGERPRINT. */
export const fingerprintText = ({ base, value }: AdminTokenFingerprint) => `${base}:${value}`;

/** The fingerprint handed over, or null when none is (then every window is hashed) or it is malformed. */
export function parseFingerprint(text: string | undefined): AdminTokenFingerprint | null {
  const match = /^(\d{1,8}):(\d{1,8})$/.exec(text ?? '');
  if (!match) return null;
  const [base, value] = [Number(match[1]), Number(match[2])];
  return base >= 2 && base < MODULUS - 1 && value < MODULUS ? { base, value } : null;
}

/**
 * Where in `run` a window of `length` characters may be the token: every start whose window has
 * the fingerprint, in order. The characters are ASCII (ADMIN_TOKEN_SHAPE), so every product stays
 * below 2^53.
 */
export function* fingerprintMatches(run: string, length: number, { base, value }: AdminTokenFingerprint) {
  if (run.length < length) return;
  let leading = 1; // base^(length-1): the weight of the character that leaves the window
  for (let i = 1; i < length; i++) leading = (leading * base) % MODULUS;
  let rolling = 0;
  for (let i = 0; i < length; i++) rolling = (rolling * base + run.charCodeAt(i)) % MODULUS;
  for (let at = 0; ; at++) {
    if (rolling === value) yield at;
    if (at + length >= run.length) return;
    const leaving = (run.charCodeAt(at) * leading) % MODULUS;
    rolling = (((rolling - leaving + MODULUS) % MODULUS) * base + run.charCodeAt(at + length)) % MODULUS;
  }
}
