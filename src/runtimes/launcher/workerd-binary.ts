import { createRequire } from 'node:module';

/**
 * The workerd binary `npm start` runs: the `workerd` npm package's build for this platform. It is the
 * very binary the tests run in: package.json pins `workerd` and `overrides` points Miniflare's (and
 * so the vitest pool's) own dependency at it, one copy in the tree; test/node/toolchain.test.ts fails
 * when the launcher's and Miniflare's workerd differ.
 */
export const workerdBinary = (createRequire(import.meta.url)('workerd') as { default: string }).default;
