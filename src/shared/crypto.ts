import { createHmac, hash } from 'node:crypto';
import { toBase64Url } from './base64';

/** SHA-256 of a string's UTF-8 bytes, in lower-case hex. */
export type Sha256Hex = (text: string) => string;

/**
 * Synchronous hashing: the audit chain is extended inside a synchronous storage transaction, where
 * `crypto.subtle` (always async) cannot be awaited. `node:crypto` is native on workerd (under
 * `nodejs_compat`), Bun and Deno alike. The one-shot `hash` skips the Hash object `createHash`
 * builds. Under workerd each call into native crypto still costs about 3.5 µs whatever the length,
 * so the workerd entry swaps in the WebAssembly SHA-256 (`useSha256Hex`, `sha256-wasm.ts`).
 */
let sha256: Sha256Hex = (text) => hash('sha256', text, 'hex');
let sha256Source = 'node:crypto';

export function sha256Hex(text: string): string {
  return sha256(text);
}

/**
 * Replaces the SHA-256 behind `sha256Hex` for the whole isolate: called once by a runtime's entry at
 * module load, before any request. The answers are the same bytes (test/sha256-wasm.test.ts).
 */
export function useSha256Hex(implementation: Sha256Hex, source: string): void {
  sha256 = implementation;
  sha256Source = source;
}

/** Which SHA-256 `sha256Hex` runs in this isolate: 'node:crypto', or what a runtime's entry swapped in. */
export function sha256In(): string {
  return sha256Source;
}

export function hmacHex(key: Uint8Array, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex');
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
