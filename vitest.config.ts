import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { Response as MiniflareResponse } from 'miniflare';
import { defineConfig } from 'vitest/config';
import { writeSha256Wasm } from './scripts/sha256-wasm.mjs';
import { createHostHandler } from './src/host/node/host-handler';
import { createFixtureHandler } from './test/node/fs-fixtures';
import { TEST_ADMIN_TOKEN, TEST_ALLOWED_ORIGIN, TEST_PORT } from './test/support/constants';

// One data root for the run: the host port's files (keys, logs, automation files) live here, as they
// do under the data root of `npm start`.
const dataRoot = mkdtempSync(join(tmpdir(), 'lpa-test-'));
const host = createHostHandler(dataRoot);
const fixtures = createFixtureHandler(dataRoot);
// The worker imports the compiled SHA-256 that the build writes; a tree never built gets it here too.
writeSha256Wasm();

/** A Node handler as a Miniflare service binding, answered through Miniflare's own Response class. */
function binding(handler: (request: Request) => Promise<Response>) {
  return async (request: Request) => {
    const response = await handler(request);
    return new MiniflareResponse(await response.arrayBuffer(), { status: response.status, headers: Object.fromEntries(response.headers) });
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        // Request-level tests inside workerd, against the worker and its Durable Object.
        plugins: [
          cloudflareTest({
            main: './src/runtimes/workerd/worker.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                LPA_PORT: String(TEST_PORT),
                LPA_DATA_ROOT: dataRoot,
                LPA_ADMIN_TOKEN_SHA256: createHash('sha256').update(TEST_ADMIN_TOKEN).digest('hex'),
                LPA_ALLOWED_ORIGINS: TEST_ALLOWED_ORIGIN,
              },
              serviceBindings: {
                // The real Node host handler, so the tests exercise the very code the launcher serves.
                HOST: binding(host),
                // Test-only: plants fixture files and links in the data root (test/node/fs-fixtures.ts).
                TEST_FS: binding(fixtures),
              },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: ['test/node/**'],
          // A real HTTP membership server on 127.0.0.1 (signed out unless a test switches it).
          globalSetup: ['test/node/membership-server.ts'],
          // Runs per fuzz property; 0 lets each fuzz file keep its bounded default (FUZZ_RUNS=1000 for a long local run).
          provide: { fuzzRuns: Number(process.env.FUZZ_RUNS) || 0 },
        },
      },
      {
        // Tests in Node that run the service as `npm start` does and talk to it over HTTP.
        test: { name: 'service', include: ['test/node/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 },
      },
    ],
  },
});
