import { base64, base64urlnopad } from '@scure/base';

/*
 * Base64 in its two uses here: standard with padding (RFC 4648 §4) for bytes that cross JSON, and
 * base64url without padding (§5) inside opaque codes and cursors. @scure/base decodes strictly: only
 * the canonical form (no white space, no letters of the other alphabet, no stray bits before the
 * padding) is accepted, and anything else throws. Where the runtime has Uint8Array.fromBase64 (workerd,
 * Bun) it uses that, so multi-megabyte files are not decoded by a JS loop.
 */

export const toBase64 = (bytes: Uint8Array): string => base64.encode(bytes);
export const fromBase64 = (text: string): Uint8Array => base64.decode(text);
export const toBase64Url = (bytes: Uint8Array): string => base64urlnopad.encode(bytes);
export const fromBase64Url = (text: string): Uint8Array => base64urlnopad.decode(text);

/** Whether `text` is standard base64 with padding in its one canonical form, the only form `fromBase64` takes. */
export function isStrictBase64(text: string): boolean {
  try {
    base64.decode(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Base64 of bytes that arrive in pieces. Whole 3-byte groups are encoded as they come and handed
 * back, so the pieces simply concatenate and the raw bytes never have to be held all at once.
 */
export class Base64Chunks {
  private carry = new Uint8Array(0);

  /** The base64 of every whole 3-byte group so far not yet handed back. */
  push(chunk: Uint8Array): string {
    const all = new Uint8Array(this.carry.length + chunk.length);
    all.set(this.carry);
    all.set(chunk, this.carry.length);
    const whole = all.length - (all.length % 3);
    this.carry = all.slice(whole);
    return toBase64(all.subarray(0, whole));
  }

  /** The rest, padded: after it the pieces make the base64 of all the bytes pushed. */
  finish(): string {
    return toBase64(this.carry);
  }
}
