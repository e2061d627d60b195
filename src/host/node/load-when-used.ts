import { createRequire } from 'node:module';

/**
 * Loads a package when the host first uses it, not at every start, most of which never do (importing
 * proxy-chain took 116 ms of CPU, ws 54 ms, tar 16 ms). `require`, not `import()`: the workerd tests
 * serve the host from vitest's config, whose module runner is closed once the config has loaded and
 * refuses every later `import()`.
 */
export const loadWhenUsed = createRequire(import.meta.url);
