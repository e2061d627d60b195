/** One built file of the console as the worker serves it (src/pipeline/console.ts). */
export interface ConsoleAsset {
  /** The Content-Type it is served with. */
  type: string;
  /** Its name carries its content hash: it may be cached for good. */
  hashed: boolean;
  body: string;
}
