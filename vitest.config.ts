import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { Response as MiniflareResponse } from 'miniflare';
import { defineConfig, type Plugin } from 'vitest/config';
import { buildConsole, consoleIsStale } from './scripts/build-console.mjs';
import { writeSha256Wasm } from './scripts/sha256-wasm.mjs';
import { adminTokenFingerprint, fingerprintText } from './src/shared/admin-token';
import { nodeHost } from './src/host/node/node-host';
import { hostServer } from './src/host/node/server';
import { createFixtureHandler } from './test/node/fs-fixtures';
import { startAccessFixture } from './test/node/access-fixture';
import { TEST_ADMIN_TOKEN, TEST_ALLOWED_ORIGIN, TEST_PORT } from './test/support/constants';
import { TEAM_TEST_HOST, TEAM_TEST_OPERATOR_TOKEN, TEAM_TEST_WRAP_KEY } from './test/teams/constants';

// One temporary folder for the whole run, removed when it ends (test/node/run-folder.ts): os.tmpdir()
// follows TMPDIR in this process and in every process it starts, so each data root, CLI work folder
// and scratch file a test makes lands under it.
// The config is evaluated more than once per run: each evaluation after the first keeps the folder.
const runFolder = (process.env.LPA_TEST_RUN_FOLDER ??= mkdtempSync(join(tmpdir(), 'lpa-run-')));
process.env.TMPDIR = runFolder;

// The worker imports the compiled SHA-256 that the build writes; a tree never built gets it here too.
writeSha256Wasm();
// The worker imports the console's files as a generated module (scripts/build-console.mjs); Bun and
// Deno, which the service tests start from the sources, import it too.
if (consoleIsStale()) await buildConsole();

// Cloudflare Access for the team tests: a JWKS on 127.0.0.1 and the keys that sign their assertions.
const access = await startAccessFixture();

/** A Node handler as a Miniflare service binding, answered through Miniflare's own Response class. */
function binding(handler: (request: Request) => Promise<Response>) {
  return async (request: Request) => {
    const response = await handler(request);
    return new MiniflareResponse(await response.arrayBuffer(), {
      status: response.status,
      headers: Object.fromEntries(response.headers),
    });
  };
}

/**
 * Listed after the Cloudflare plugin in a workerd project, which makes Vite transform every package a
 * test imports (zod, @noble/curves, otpauth…) and send it, with its source map, to each test file's
 * own workerd: some 9 MB of code per file, serialized on vitest's main thread. With this, workerd
 * loads the packages from node_modules as they are (through Miniflare's module fallback), as the
 * bundled worker of `npm start` runs them. The workerd projects then took 99 s instead of 115 s,
 * and 26 s less CPU (docs/development.md#test-time).
 */
const packagesAsTheyAre: Plugin = {
  name: 'lpa:packages-as-they-are',
  config(config) {
    config.test!.server!.deps!.inline = [];
  },
};

export default defineConfig({
  test: {
    // Three test files at once. Vitest's default on this 2-core machine is one (cores - 1), which
    // leaves a core idle while a service test waits on a start, a browser, a lease or a timeout; three
    // keep both cores 91-95% busy, and four took as long (docs/development.md#test-time).
    maxWorkers: 3,
    // The teams' log lines go to the Worker's console (src/teams/team-host.ts), where Workers Logs keeps them; not to the test report.
    onConsoleLog: (log) => !log.startsWith('{"team_id"'),
    projects: [
      {
        // Request-level tests inside workerd, against the worker and its Durable Object.
        plugins: [
          // A function: the plugin calls it for each runtime it starts, one per test file, and each
          // gets a data root of its own (the host port's files: keys, seal record, logs, automation
          // files), as each store of `npm start` has. One store to one data root is what the audit's
          // seal record relies on (storage/audit/proofs.ts), so test files never share one.
          cloudflareTest(() => {
            const dataRoot = mkdtempSync(join(runFolder, 'lpa-test-'));
            const host = hostServer(nodeHost(dataRoot));
            const fixtures = createFixtureHandler(dataRoot);
            return {
              main: './src/runtimes/workerd/worker.ts',
              // The pool's default (true) has workerd print every exception it saw with its stack, also
              // those the worker caught: a passing membership test (a server down on purpose) printed 14.
              // Turn it back on to read workerd's side of a failing test.
              verbose: false,
              wrangler: { configPath: './wrangler.toml', environment: 'local' },
              miniflare: {
                bindings: {
                  LPA_PORT: String(TEST_PORT),
                  LPA_DATA_ROOT: dataRoot,
                  LPA_ADMIN_TOKEN_SHA256: createHash('sha256').update(TEST_ADMIN_TOKEN).digest('hex'),
                  LPA_ADMIN_TOKEN_LENGTH: String(TEST_ADMIN_TOKEN.length),
                  LPA_ADMIN_TOKEN_FINGERPRINT: fingerprintText(adminTokenFingerprint(TEST_ADMIN_TOKEN)),
                  LPA_ALLOWED_ORIGINS: TEST_ALLOWED_ORIGIN,
                },
                serviceBindings: {
                  // The real host server over the Node implementation: the very code the launcher serves.
                  HOST: binding(host),
                  // Test-only: plants fixture files and links in the data root (test/node/fs-fixtures.ts).
                  TEST_FS: binding(fixtures),
                },
              },
            };
          }),
          packagesAsTheyAre,
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          // A file's first request starts its Durable Object (migrations, keys through the host port):
          // seconds on a loaded machine, which 5 s of vitest's default does not always cover.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          exclude: ['test/node/**', 'test/teams/**'],
          // A real HTTP membership server on 127.0.0.1 (signed out unless a test switches it).
          globalSetup: ['test/node/membership-server.ts', 'test/node/run-folder.ts'],
          // Runs per fuzz property; 0 lets each fuzz file keep its bounded default (FUZZ_RUNS=1000 for a long local run).
          provide: { fuzzRuns: Number(process.env.FUZZ_RUNS) || 0 },
        },
      },
      {
        // Request-level tests of the team service (wrangler.toml's [env.team]) inside workerd: several
        // teams' Durable Objects, the bucket and the rate limiter as Miniflare simulates them.
        plugins: [
          cloudflareTest(() => ({
            main: './src/runtimes/cloudflare/team-worker.ts',
            wrangler: { configPath: './wrangler.toml', environment: 'team' },
            miniflare: {
              bindings: {
                LPA_TEAM_HOSTNAMES: TEAM_TEST_HOST,
                LPA_OPERATOR_TOKEN: TEAM_TEST_OPERATOR_TOKEN,
                LPA_KEY_WRAP_KEY: TEAM_TEST_WRAP_KEY,
                LPA_ACCESS_JWKS_URL: access.jwksUrl,
                LPA_ACCESS_AUD: access.audience,
                LPA_ACCESS_ISSUER: access.issuer,
                // Test-only: the private keys the tests sign Access assertions with.
                TEST_ACCESS_KEYS: JSON.stringify({ signing: access.signing, stranger: access.stranger }),
              },
            },
          })),
          packagesAsTheyAre,
        ],
        test: {
          name: 'teams',
          include: ['test/teams/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Tests in Node that run the service as `npm start` does and talk to it over HTTP.
        test: {
          name: 'service',
          include: ['test/node/**/*.test.ts'],
          environment: 'node',
          // node:sqlite (the witness tests read a machine's store) warns that it is experimental on every import.
          execArgv: ['--disable-warning=ExperimentalWarning'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          globalSetup: ['test/node/run-folder.ts'],
        },
      },
    ],
  },
});
