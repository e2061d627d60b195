/** Types of scripts/sha256-wasm.mjs for the TypeScript that imports it (vitest.config.ts). */
export const SHA256_WASM: string;
export function writeSha256Wasm(path?: string): void;
