const ALPHABET = /^[A-Za-z0-9+/]*$/;
/** The last character before `==` or `=` may only carry zero bits in the part that is dropped. */
const LAST_BEFORE_TWO_PADS = /[AQgw]/;
const LAST_BEFORE_ONE_PAD = /[AEIMQUYcgkosw048]/;

/**
 * Standard base64 (RFC 4648 §4) with padding, in its one canonical form: no white space, no
 * base64url letters, length a multiple of four, and no stray bits before the padding. Checked
 * without a backtracking pattern over the whole text, which multi-megabyte input would make costly.
 */
export function isStrictBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (!ALPHABET.test(text.slice(0, text.length - pads))) return false;
  if (pads === 2) return LAST_BEFORE_TWO_PADS.test(text.charAt(text.length - 3));
  if (pads === 1) return LAST_BEFORE_ONE_PAD.test(text.charAt(text.length - 2));
  return true;
}
