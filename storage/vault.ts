import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { ApiError } from '../src/shared/errors/api-error';
import { fromBase64, toBase64 } from '../src/shared/base64';
import { utf8Bytes } from '../src/shared/unicode';
import { concatBytes } from '../src/shared/bytes';

export type VaultState = 'unlocked' | 'locked' | 'missing';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const GCM = 'aes-256-gcm';
const PREFIX = 'v1.';

/**
 * Encrypts secrets at rest with AES-256-GCM under the key of `<data root>/vault.key`, which never
 * enters the database. The associated data names the field a ciphertext belongs to, so a ciphertext
 * copied into another row or column does not decrypt.
 */
export class Vault {
  /** Made once: node:crypto turns raw key bytes into a key object on every cipher otherwise. */
  private readonly key: KeyObject | null;
  /** The raw bytes, which HKDF takes (workerd's key objects export nothing). */
  private readonly bytes: Uint8Array | null;

  constructor(
    key: Uint8Array | null,
    readonly state: VaultState,
    readonly reason: string | null,
  ) {
    this.key = key === null ? null : createSecretKey(key);
    this.bytes = key;
  }

  static unlocked(key: Uint8Array): Vault {
    if (key.length !== 32) return new Vault(null, 'locked', 'vault.key does not hold a 256-bit key');
    return new Vault(key, 'unlocked', null);
  }

  seal(plaintext: string | Uint8Array, aad: string): string {
    const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
    const data = typeof plaintext === 'string' ? utf8Bytes(plaintext) : plaintext;
    // node:crypto is native everywhere the store runs: sealing a global took ~90 µs in pure JS under workerd.
    const cipher = createCipheriv(GCM, this.requireKey(), nonce, { authTagLength: TAG_BYTES }).setAAD(utf8Bytes(aad));
    // workerd's final() fails after an update with no bytes; an empty value is sealed with no update.
    const body = data.length === 0 ? [] : [cipher.update(data)];
    return PREFIX + toBase64(concatBytes([nonce, ...body, cipher.final(), cipher.getAuthTag()]));
  }

  /** Throws when the ciphertext was altered, is cut short, or belongs to another key or `aad`. */
  openBytes(sealed: string, aad: string): Uint8Array {
    const key = this.requireKey();
    if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed value');
    const raw = fromBase64(sealed.slice(PREFIX.length));
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed value too short');
    const decipher = createDecipheriv(GCM, key, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES })
      .setAAD(utf8Bytes(aad))
      .setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return concatBytes([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  }

  /** A key of its own for `label` (HKDF-SHA256 of the vault key): for where the vault key itself must not go. */
  derive(label: string): Uint8Array {
    this.requireKey();
    return new Uint8Array(hkdfSync('sha256', this.bytes!, new Uint8Array(0), utf8Bytes(label), 32));
  }

  open(sealed: string, aad: string): string {
    return new TextDecoder().decode(this.openBytes(sealed, aad));
  }

  private requireKey(): KeyObject {
    if (!this.key) throw new ApiError('vault.locked', { state: this.state, reason: this.reason });
    return this.key;
  }
}

/** What a secret that does not open names: its record and field (the catalogue's `vault.unreadable`). */
export type UnreadableSecret = {
  field: 'password' | 'totp_secret' | 'proxy_password';
} & ({ account_id: string } | { profile_id: string });

/** A secret field's value sealed under its AAD, for its column; null (or absent) stays null. */
export function sealField(vault: Vault, value: string | null | undefined, aad: string): string | null {
  return value === undefined || value === null ? null : vault.seal(value, aad);
}

/** A sealed field opened; a ciphertext that does not open under this key and AAD was altered or sealed under another key. */
export function openField(vault: Vault, sealed: string, aad: string, names: UnreadableSecret): string {
  try {
    return vault.open(sealed, aad);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('vault.unreadable', names);
  }
}
