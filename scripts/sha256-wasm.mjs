/**
 * The SHA-256 WebAssembly module of hash-wasm (its compiled C, `src/sha256.c`), written out as a
 * `.wasm` file: workerd compiles no WebAssembly at run time, but loads a module declared in its
 * config (and the test pool imports a `.wasm` file as a compiled module). hash-wasm ships the binary
 * only as base64 inside its bundles, next to the first 4 bytes of the binary's SHA-1, which is
 * checked here so that a changed bundle layout fails the build instead of writing a wrong module.
 * Plain JavaScript: it runs from scripts/build.mjs and vitest.config.ts before anything is compiled.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Where the worker's source imports it from (src/runtimes/workerd/worker.ts); not committed. */
export const SHA256_WASM = fileURLToPath(new URL('../src/runtimes/workerd/sha256.wasm', import.meta.url));

function sha256WasmBytes() {
  const bundle = readFileSync(createRequire(import.meta.url).resolve('hash-wasm/dist/sha256.umd.min.js'), 'utf8');
  const found = /name:"sha256",data:"([A-Za-z0-9+/=]+)",hash:"([0-9a-f]{8})"/.exec(bundle);
  if (!found) throw new Error('hash-wasm/dist/sha256.umd.min.js: no embedded sha256 module found');
  const bytes = Buffer.from(found[1], 'base64');
  if (createHash('sha1').update(bytes).digest('hex').slice(0, 8) !== found[2]) {
    throw new Error('hash-wasm/dist/sha256.umd.min.js: the embedded sha256 module does not match its own checksum');
  }
  return bytes;
}

/** Writes the module unless the file already holds it (an unchanged file keeps its mtime, so no rebuild follows). */
export function writeSha256Wasm(path = SHA256_WASM) {
  const bytes = sha256WasmBytes();
  let current;
  try {
    current = readFileSync(path);
  } catch {
    current = null;
  }
  if (current?.equals(bytes)) return;
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
}
