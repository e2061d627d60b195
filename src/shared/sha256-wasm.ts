/**
 * SHA-256 by hash-wasm's compiled C (the module scripts/sha256-wasm.mjs writes out), driven through
 * the ABI that hash-wasm's own WASMInterface drives: a 16 KiB input buffer inside the module's memory
 * (`Hash_GetBuffer`), `Hash_Calculate(length, 256)` for an input that fits (init, update, final in one
 * call), `Hash_Init(256)` / `Hash_Update(length)` per buffer-full / `Hash_Final()` for a longer one;
 * the digest is left at the start of the buffer. Text goes in as UTF-8, encoded straight into the
 * buffer, so a hash allocates nothing but its hex answer.
 */

/** hash-wasm's MAIN_BUFFER_SIZE (src/hash-wasm.h). */
const BUFFER_BYTES = 16 * 1024;
/** Hash_Init's argument: SHA-256 rather than SHA-224. */
const SHA256_BITS = 256;
const DIGEST_BYTES = 32;

interface Sha256Exports {
  memory: WebAssembly.Memory;
  Hash_GetBuffer(): number;
  Hash_Init(bits: number): void;
  Hash_Update(length: number): void;
  Hash_Final(): void;
  Hash_Calculate(length: number, bits: number): void;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A synchronous SHA-256 of a string's UTF-8 bytes, in lower-case hex, from the compiled module. */
export function wasmSha256Hex(module: WebAssembly.Module): (text: string) => string {
  const wasm = new WebAssembly.Instance(module, {}).exports as unknown as Sha256Exports;
  // The module never grows its memory, so the view stays attached.
  const buffer = new Uint8Array(wasm.memory.buffer, wasm.Hash_GetBuffer(), BUFFER_BYTES);
  const encoder = new TextEncoder();

  /** Feeds a text that does not fit the buffer one buffer-full at a time (encodeInto never splits a character). */
  function hashLong(text: string, firstRead: number, firstWritten: number): void {
    wasm.Hash_Init(SHA256_BITS);
    wasm.Hash_Update(firstWritten);
    for (let at = firstRead; at < text.length; ) {
      const { read, written } = encoder.encodeInto(text.substring(at), buffer);
      wasm.Hash_Update(written);
      at += read;
    }
    wasm.Hash_Final();
  }

  return (text) => {
    const { read, written } = encoder.encodeInto(text, buffer);
    if (read === text.length) wasm.Hash_Calculate(written, SHA256_BITS);
    else hashLong(text, read, written);
    let hex = '';
    for (let i = 0; i < DIGEST_BYTES; i++) hex += HEX[buffer[i]!];
    return hex;
  };
}
