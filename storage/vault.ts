import { gcm } from '@noble/ciphers/aes.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { ApiError } from '../src/errors/api-error';
import { fromBase64, toBase64 } from '../src/shared/base64';

export type VaultState = 'unlocked' | 'locked' | 'missing';

const NONCE_BYTES = 12;
const PREFIX = 'v1.';

/**
 * Encrypts secrets at rest with AES-256-GCM under the key of `<data root>/vault.key`, which never
 * enters the database. The associated data names the field a ciphertext belongs to, so a ciphertext
 * copied into another row or column does not decrypt.
 */
export class Vault {
  constructor(
    private readonly key: Uint8Array | null,
    readonly state: VaultState,
    readonly reason: string | null,
  ) {}

  static unlocked(key: Uint8Array): Vault {
    if (key.length !== 32) return new Vault(null, 'locked', 'vault.key does not hold a 256-bit key');
    return new Vault(key, 'unlocked', null);
  }

  seal(plaintext: string | Uint8Array, aad: string): string {
    const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
    const data = typeof plaintext === 'string' ? utf8ToBytes(plaintext) : plaintext;
    const sealed = gcm(this.requireKey(), nonce, utf8ToBytes(aad)).encrypt(data);
    const out = new Uint8Array(NONCE_BYTES + sealed.length);
    out.set(nonce);
    out.set(sealed, NONCE_BYTES);
    return PREFIX + toBase64(out);
  }

  openBytes(sealed: string, aad: string): Uint8Array {
    const key = this.requireKey();
    const raw = fromBase64(sealed.slice(PREFIX.length));
    return gcm(key, raw.subarray(0, NONCE_BYTES), utf8ToBytes(aad)).decrypt(raw.subarray(NONCE_BYTES));
  }

  open(sealed: string, aad: string): string {
    return new TextDecoder().decode(this.openBytes(sealed, aad));
  }

  private requireKey(): Uint8Array {
    if (!this.key) throw new ApiError('vault.locked', { state: this.state, reason: this.reason });
    return this.key;
  }
}
