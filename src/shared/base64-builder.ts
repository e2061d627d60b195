import { toBase64 } from './base64';

/**
 * Base64 of bytes that arrive in pieces. Whole 3-byte groups are encoded as they come, so the parts
 * simply concatenate and the raw bytes never have to be held all at once.
 */
export class Base64Builder {
  private readonly parts: string[] = [];
  private carry = new Uint8Array(0);
  /** Bytes pushed so far. */
  bytes = 0;

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    const all = new Uint8Array(this.carry.length + chunk.length);
    all.set(this.carry);
    all.set(chunk, this.carry.length);
    const whole = all.length - (all.length % 3);
    this.parts.push(toBase64(all.subarray(0, whole)));
    this.carry = all.slice(whole);
  }

  finish(): string {
    return this.parts.join('') + toBase64(this.carry);
  }
}
