import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64, toBase64Url } from '../src/shared/base64';
import { parseWrapKey, unwrapKey, wrapKey, type WrappedKeyId } from '../src/teams/key-wrap';

/** A team's keys wrapped under the key-encryption key of `LPA_KEY_WRAP_KEY`, in workerd's node:crypto. */
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const kek = parseWrapKey(toBase64(random(32)));
const id: WrappedKeyId = { teamId: 'acme-ops', name: 'vault' };
const key = random(32);
const wrapped = wrapKey(kek, id, key);

/** `text` with one bit of the character at `at` flipped, kept in the base64 alphabet where it can be. */
function flipped(text: string, at: number): string {
  const flip = String.fromCharCode(text.charCodeAt(at) ^ 1);
  return text.slice(0, at) + flip + text.slice(at + 1);
}

describe('key wrapping', () => {
  it('unwraps what it wrapped, with a new nonce every time', () => {
    expect(unwrapKey(kek, id, wrapped)).toEqual(key);
    const again = wrapKey(kek, id, key);
    expect(again).not.toBe(wrapped);
    expect(unwrapKey(kek, id, again)).toEqual(key);
    // The version, then a 12-byte nonce, the 32 bytes and a 16-byte tag.
    expect(wrapped).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(fromBase64(wrapped.slice(3))).toHaveLength(12 + 32 + 16);
  });

  it('never holds the key in the clear', () => {
    for (const text of [toBase64(key), toBase64Url(key), Buffer.from(key).toString('hex')]) {
      expect(wrapped).not.toContain(text);
      expect(wrapped).not.toContain(text.slice(0, 16));
    }
  });

  it('does not open under another key-encryption key', () => {
    expect(() => unwrapKey(parseWrapKey(toBase64(random(32))), id, wrapped)).toThrow(/does not unwrap/);
  });

  it("does not open as another team's key or as another key of the team", () => {
    expect(() => unwrapKey(kek, { ...id, teamId: 'acme-dev' }, wrapped)).toThrow(/does not unwrap/);
    expect(() => unwrapKey(kek, { ...id, name: 'audit' }, wrapped)).toThrow(/does not unwrap/);
    expect(() => unwrapKey(kek, { ...id, name: 'audit-signing' }, wrapped)).toThrow(/does not unwrap/);
  });

  it('does not open with any one bit flipped, or cut short', () => {
    for (let at = 0; at < wrapped.length; at++) {
      expect(() => unwrapKey(kek, id, flipped(wrapped, at)), `character ${at}`).toThrow(/does not unwrap/);
    }
    expect(() => unwrapKey(kek, id, wrapped.slice(0, 20))).toThrow(/does not unwrap/);
    expect(() => unwrapKey(kek, id, '')).toThrow(/does not unwrap/);
  });

  it('wraps 32-byte keys only', () => {
    expect(() => wrapKey(kek, id, random(16))).toThrow(/32 bytes/);
  });
});

describe('the key-encryption key', () => {
  it('is 32 bytes of standard base64; the white space of a pasted secret is dropped', () => {
    const text = toBase64(random(32));
    expect(unwrapKey(parseWrapKey(`${text}\n`), id, wrapKey(parseWrapKey(text), id, key))).toEqual(key);
  });

  it.each([
    ['empty', '', /holds 0 bytes/],
    ['31 bytes', toBase64(random(31)), /holds 31 bytes/],
    ['33 bytes', toBase64(random(33)), /holds 33 bytes/],
    ['64 bytes', toBase64(random(64)), /holds 64 bytes/],
    ['hex', Buffer.from(random(32)).toString('hex'), /not base64|holds 48 bytes/],
    ['base64url', toBase64Url(random(32)), /not base64/],
    ['not base64', 'this is not a key at all, just some words!!', /not base64/],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseWrapKey(text)).toThrow(message);
  });
});
