import { describe, expect, it } from 'vitest';
import { Vault } from '../storage/vault';

const key = new Uint8Array(32).map((_, i) => i);
const vault = Vault.unlocked(key);
const AAD = 'global:answer:value';
/** Sealed by the earlier pure-JS AES-GCM (@noble/ciphers) with `key` and nonce a0..ab: stores written then must still open. */
const SEALED_BEFORE = 'v1.oKGio6SlpqeoqaqrgHcOWTzmdsgNRWVPlE/owRMtulGr0HtPVJqT+4I=';

/** The sealed value with its bytes changed by `change`, in the same format. */
function altered(sealed: string, change: (bytes: Uint8Array) => Uint8Array): string {
  const bytes = Uint8Array.from(atob(sealed.slice(3)), (c) => c.charCodeAt(0));
  return `v1.${btoa(String.fromCharCode(...change(bytes)))}`;
}

describe('vault (AES-256-GCM)', () => {
  it('opens what the earlier implementation sealed, and seals in the same format', () => {
    expect(vault.open(SEALED_BEFORE, AAD)).toBe('forty-two ✓');
    const sealed = vault.seal('forty-two ✓', AAD);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(sealed.length).toBe(SEALED_BEFORE.length);
    expect(vault.open(sealed, AAD)).toBe('forty-two ✓');
    // A fresh nonce each time: the same plaintext never seals to the same text.
    expect(vault.seal('forty-two ✓', AAD)).not.toBe(sealed);
    expect(new TextDecoder().decode(vault.openBytes(vault.seal(new Uint8Array([1, 2, 3]), AAD), AAD))).toBe(
      '\u0001\u0002\u0003',
    );
    expect(vault.open(vault.seal('', AAD), AAD)).toBe('');
  });

  it('refuses another field, another key, any changed byte and a cut tag', () => {
    expect(() => vault.open(SEALED_BEFORE, 'global:other:value')).toThrow();
    expect(() => Vault.unlocked(new Uint8Array(32)).open(SEALED_BEFORE, AAD)).toThrow();
    const length = altered(SEALED_BEFORE, (b) => b).length;
    expect(length).toBe(SEALED_BEFORE.length);
    for (const at of [0, 11, 12, 20, 30, 38]) {
      expect(() =>
        vault.open(
          altered(SEALED_BEFORE, (b) => b.map((x, i) => (i === at ? x ^ 1 : x))),
          AAD,
        ),
      ).toThrow();
    }
    // GCM would accept a truncated tag where the length is not fixed; the vault takes only full 16-byte tags.
    for (const cut of [1, 4, 8, 16, 27])
      expect(() =>
        vault.open(
          altered(SEALED_BEFORE, (b) => b.subarray(0, b.length - cut)),
          AAD,
        ),
      ).toThrow();
  });

  it('a locked vault seals and opens nothing', () => {
    const locked = Vault.unlocked(new Uint8Array(16));
    expect(locked.state).toBe('locked');
    expect(() => locked.seal('x', AAD)).toThrow();
  });
});
