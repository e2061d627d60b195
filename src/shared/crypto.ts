import { sha256 } from '@noble/hashes/sha2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { toBase64Url } from './base64';

/**
 * Synchronous hashing: the audit chain is extended inside a synchronous storage transaction, where
 * `crypto.subtle` (always async) cannot be awaited. Pure JS, so it runs the same on workerd, Bun and Deno.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function hmacHex(key: Uint8Array, text: string): string {
  return bytesToHex(hmac(sha256, key, utf8ToBytes(text)));
}

/** Compares two strings in time that depends only on their length. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function randomToken(prefix: string, bytes = 32): string {
  return prefix + toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}
