/**
 * `npm run build` (also run by `prepare`, so `npm install` / `npm ci` / `npm pack` build): bundles what `npm start`
 * and `lpa` run into `dist/`, so that start-up loads plain JavaScript — no TypeScript loader, no bundling:
 * - `dist/worker.js`, the worker as workerd loads it (one ES module), and beside it `dist/sha256.wasm`,
 *   the compiled SHA-256 it imports (scripts/sha256-wasm.mjs; workerd's config declares it);
 * - the web console (scripts/build-console.mjs), built first: the worker bundle carries its files;
 * - `dist/lpa.mjs`, the `lpa` command (src/cli/main.ts) with every package it uses in one file, so that
 *   `bin/lpa.mjs` starts without resolving packages or compiling TypeScript, and a packed install
 *   needs nothing else of the repository;
 * - `dist/launcher.mjs`, the Node launcher (src/runtimes/launcher/main.ts); packages stay in node_modules.
 * `isStale()` tells `npm start` (scripts/start.mjs) whether a source changed since the last build.
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { copyFileSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { buildConsole } from './build-console.mjs';
import { SHA256_WASM, writeSha256Wasm } from './sha256-wasm.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
/** Written last, so a build that stopped half-way is still stale. */
const STAMP = join(DIST, 'launcher.mjs');
/** What the bundles are built from: every change there makes the build stale. */
const SOURCES = ['src', 'storage', 'handlers', 'package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/build-console.mjs', 'scripts/sha256-wasm.mjs'];

function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

/** True when `dist/` is missing or older than a source it is built from. */
export function isStale() {
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return SOURCES.some((source) => newestChange(join(ROOT, source)) > built);
}

/**
 * Each bundle is written next to its place and renamed into it, so a launcher that starts while
 * another process builds never loads half a file.
 */
async function bundle(build, outfile, options) {
  const partial = `${outfile}.${process.pid}.partial`;
  await build({ bundle: true, format: 'esm', target: 'es2022', logLevel: 'error', ...options, outfile: partial });
  renameSync(partial, outfile);
}

export async function buildAll() {
  mkdirSync(DIST, { recursive: true });
  // Loaded here, not at the top: a start that finds dist/ current never loads esbuild. Its helper
  // process is stopped afterwards, so a service that built first does not keep it resident.
  const { build, stop } = await import('esbuild');
  try {
    await buildBoth(build);
  } finally {
    await stop();
  }
}

async function buildBoth(build) {
  writeSha256Wasm();
  copyFileSync(SHA256_WASM, join(DIST, 'sha256.wasm'));
  await buildConsole();
  await bundle(build, join(DIST, 'worker.js'), {
    entryPoints: [join(ROOT, 'src/runtimes/workerd/worker.ts')],
    platform: 'neutral',
    // `./sha256.wasm` stays an import: workerd resolves it to the module its config declares.
    external: ['cloudflare:*', 'node:*', '*.wasm'],
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
  });
  await bundle(build, join(DIST, 'lpa.mjs'), {
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    platform: 'node',
    target: 'node20',
    // Smaller to read and compile at every start; the names stay, so a stack trace still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    // The packages' CommonJS parts call require(); an ES module has none unless it makes one.
    banner: { js: "import { createRequire as lpaCreateRequire } from 'node:module';\nconst require = lpaCreateRequire(import.meta.url);" },
  });
  await bundle(build, STAMP, {
    entryPoints: [join(ROOT, 'src/runtimes/launcher/main.ts')],
    platform: 'node',
    target: 'node20',
    packages: 'external',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildAll();
