/**
 * The part of `node:crypto` the shared code uses. workerd serves the module under the
 * `nodejs_compat` flag, but @cloudflare/workers-types does not declare it; the Node, Bun and Deno
 * typechecks take the full declaration from their own types instead (they do not include this file).
 */
declare module 'node:crypto' {
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(encoding: 'hex'): string;
  }
  export function hash(algorithm: 'sha256', data: string, outputEncoding: 'hex'): string;
  export function createHmac(algorithm: 'sha256', key: Uint8Array): Hash;
}

/** AES-256-GCM for the vault (storage/vault.ts). */
declare module 'node:crypto' {
  interface KeyObject {
    readonly type: 'secret';
  }
  export function createSecretKey(key: Uint8Array): KeyObject;
  interface AeadCipher {
    setAAD(data: Uint8Array): this;
    update(data: Uint8Array): Uint8Array;
    final(): Uint8Array;
  }
  interface GcmCipher extends AeadCipher {
    getAuthTag(): Uint8Array;
  }
  interface GcmDecipher extends AeadCipher {
    setAuthTag(tag: Uint8Array): this;
  }
  export function createCipheriv(
    algorithm: 'aes-256-gcm',
    key: KeyObject,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): GcmCipher;
  export function createDecipheriv(
    algorithm: 'aes-256-gcm',
    key: KeyObject,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): GcmDecipher;
}
