import { hash } from 'node:crypto';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import sha256Wasm from '../src/runtimes/workerd/sha256.wasm';
import { sha256In } from '../src/shared/crypto';
import { wasmSha256Hex } from '../src/shared/sha256-wasm';
import { inStore } from './support/store';

/** The module's input buffer (hash-wasm's MAIN_BUFFER_SIZE): texts around it take the long path. */
const BUFFER_BYTES = 16 * 1024;

const wasmHex = wasmSha256Hex(sha256Wasm);
const nodeHex = (text: string) => hash('sha256', text, 'hex');

/** Characters of every UTF-8 length, a surrogate pair, and lone surrogates (both hash as U+FFFD). */
const ALPHABET = [
  'a',
  'Z',
  '0',
  '"',
  '\\',
  '\n',
  '\u0000',
  'é',
  'ß',
  '\u2028',
  '€',
  '中',
  '\uffff',
  '😀',
  '\u{10ffff}',
  '\ud800',
  '\udfff',
];
const randomInt = (below: number) => Math.floor(Math.random() * below);
const randomText = (length: number) => Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Compares both hashes, naming the input on a mismatch. */
function expectSameHash(text: string): void {
  const wasm = wasmHex(text);
  if (wasm !== nodeHex(text))
    expect.fail(
      `different SHA-256 for a text of ${text.length} code units starting ${JSON.stringify(text.slice(0, 40))}`,
    );
}

describe('SHA-256 from the compiled module (hash-wasm) against node:crypto', () => {
  it('matches the published test vectors', () => {
    expect(wasmHex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(wasmHex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(wasmHex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('gives the same bytes for 20,000 random texts of the sizes audit entries have', () => {
    for (let i = 0; i < 20_000; i++) expectSameHash(randomText(randomInt(600)));
  });

  it('gives the same bytes for texts longer than its buffer, in several buffer-fulls', () => {
    for (let i = 0; i < 200; i++) expectSameHash(randomText(BUFFER_BYTES / 4 + randomInt(4 * BUFFER_BYTES)));
  });

  it('gives the same bytes where the buffer ends inside, before or after a multi-byte character', () => {
    for (const filler of ['a', 'é', '€', '😀', '\ud800']) {
      for (let ascii = BUFFER_BYTES - 8; ascii <= BUFFER_BYTES + 8; ascii++) {
        expectSameHash('x'.repeat(ascii) + filler.repeat(3));
        expectSameHash(filler.repeat(3) + 'x'.repeat(ascii - 9) + filler);
      }
    }
  });

  it('keeps no state between calls: a long text, then a short one, hash as they do alone', () => {
    const long = randomText(3 * BUFFER_BYTES);
    const short = randomText(100);
    const alone = wasmHex(short);
    wasmHex(long);
    expect(wasmHex(short)).toBe(alone);
    expect(alone).toBe(nodeHex(short));
  });
});

describe('the SHA-256 the service runs under workerd', () => {
  it('is the compiled module, in the Worker and in the store alike', async () => {
    await exports.default.fetch('http://localhost/status');
    expect(sha256In()).toBe('hash-wasm');
    expect(await inStore(() => sha256In())).toBe('hash-wasm');
  });
});
