// What the Node-side global setup hands to the tests in workerd.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the test membership server (test/node/membership-server.ts). */
    membershipUrl: string;
    /** FUZZ_RUNS from the environment: runs per fuzz property, 0 for each file's default. */
    fuzzRuns: number;
  }
}
export {};
