import { fromBase64Url, toBase64Url } from '../../src/shared/base64';

/**
 * A share code is `lpas1.<share id>.<key>`: the share's id and its 256-bit bundle key in base64url.
 * The key is never stored, so the stored bundle cannot be read without the code. 43 characters carry
 * 258 bits: the last character's two unused bits are zero in every code we issue, so the pattern (which
 * the OpenAPI document states) admits only those last characters, and one code has one spelling.
 */
export const SHARE_CODE =
  /^lpas1\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{42}[AEIMQUYcgkosw048])$/;

export const SHARE_KEY_BYTES = 32;

export function encodeShareCode(id: string, key: Uint8Array): string {
  return `lpas1.${id}.${toBase64Url(key)}`;
}

export function parseShareCode(code: string): { id: string; key: Uint8Array } | null {
  const match = SHARE_CODE.exec(code);
  if (!match) return null;
  // The pattern admits only canonical base64url, which the strict decoder always takes.
  return { id: match[1]!, key: fromBase64Url(match[2]!) };
}
