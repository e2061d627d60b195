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
