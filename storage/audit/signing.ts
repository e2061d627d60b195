import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { fromBase64, toBase64 } from '../../src/shared/base64';
import { canonical } from './chain';
import type { AuditPublicKey } from './schema';

/** RFC 8410: an Ed25519 SubjectPublicKeyInfo is this DER prefix followed by the 32-byte public key. */
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

/** The public key as PEM (SPKI, as `openssl pkey -pubout` writes it and node:crypto reads it). */
export function publicKeyPem(publicKey: Uint8Array): string {
  const der = new Uint8Array(SPKI_PREFIX.length + publicKey.length);
  der.set(SPKI_PREFIX);
  der.set(publicKey, SPKI_PREFIX.length);
  const body = toBase64(der)
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`;
}

/** The 32-byte Ed25519 public key of a PEM, or null when the text is not an Ed25519 public key. */
export function publicKeyFromPem(pem: string): Uint8Array | null {
  const match = /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----/.exec(pem);
  if (!match) return null;
  let der: Uint8Array;
  try {
    der = fromBase64(match[1]!.replace(/\s+/g, ''));
  } catch {
    return null;
  }
  const prefixOk = der.length === SPKI_PREFIX.length + 32 && SPKI_PREFIX.every((b, i) => der[i] === b);
  return prefixOk ? der.slice(SPKI_PREFIX.length) : null;
}

/** A key's id: lower-case hex SHA-256 of its 32 raw public key bytes. */
export function keyId(publicKey: Uint8Array): string {
  return bytesToHex(sha256(publicKey));
}

/** Whether `signature` (base64) is the key's Ed25519 signature over the UTF-8 canonical JSON of `value`. */
export function signatureValid(
  publicKey: Uint8Array | null,
  value: Record<string, unknown>,
  signature: string | null | undefined,
): boolean {
  if (publicKey === null || typeof signature !== 'string') return false;
  try {
    return ed25519.verify(fromBase64(signature), new TextEncoder().encode(canonical(value)), publicKey);
  } catch {
    return false; // not base64, or not a signature at all
  }
}

/**
 * The store's Ed25519 signing key: the 32 random bytes of `<data root>/audit-signing.key` are its
 * RFC 8032 private key (seed). Synchronous (@noble/curves), so anchors are signed inside the
 * transaction that writes them.
 */
export class AuditSigner {
  readonly publicKey: Uint8Array;
  readonly keyId: string;

  constructor(private readonly seed: Uint8Array) {
    this.publicKey = ed25519.getPublicKey(seed);
    this.keyId = keyId(this.publicKey);
  }

  /** Base64 Ed25519 signature over the UTF-8 bytes of canonical(value). */
  sign(value: Record<string, unknown>): string {
    return toBase64(ed25519.sign(new TextEncoder().encode(canonical(value)), this.seed));
  }

  info(): AuditPublicKey {
    return { key_id: this.keyId, algorithm: 'Ed25519', public_key_pem: publicKeyPem(this.publicKey) };
  }
}
