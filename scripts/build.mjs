/**
 * `npm run build` (also run by `prepare`, so `npm install` / `npm ci` / `npm pack` build): bundles what `npm start`
 * and `lpa` run into `dist/`, so that start-up loads plain JavaScript — no TypeScript loader, no bundling:
 * - `dist/worker.js`, the worker as workerd loads it (one ES module), and beside it `dist/sha256.wasm`,
 *   the compiled SHA-256 it imports (scripts/sha256-wasm.mjs; workerd's config declares it);
 * - the web console (scripts/build-console.mjs), built first: the worker bundle carries its files;
 * - `packages/cli/dist/`, the `lpa` command (src/cli/main.ts) with every package it uses, in the folder of
 *   its own package (packages/cli): `lpa.mjs` and the chunks it loads, so that `lpa` starts without
 *   resolving packages or compiling TypeScript, and its packed package needs nothing else;
 * - `dist/launcher.mjs`, the launcher (src/runtimes/launcher/main.ts), Node code that `npm start` runs on Bun
 *   (docs/decisions/008-launcher-on-bun.md); packages stay in node_modules.
 * `isStale()` and `cliIsStale()` (scripts/build-stale.mjs) tell `npm start` and `bin/lpa.mjs` whether a source
 * changed since the last build.
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { buildConsole } from './build-console.mjs';
import { CLI_DIST, CLI_SOURCES, DIST, ROOT, STAMP } from './build-stale.mjs';
import { SHA256_WASM, writeSha256Wasm } from './sha256-wasm.mjs';

/**
 * Each bundle is written next to its place and renamed into it, so a launcher that starts while
 * another process builds never loads half a file.
 */
async function bundle(build, outfile, options) {
  const partial = `${outfile}.${process.pid}.partial`;
  await build({ bundle: true, format: 'esm', target: 'es2022', logLevel: 'error', ...options, outfile: partial });
  renameSync(partial, outfile);
}

/**
 * The `lpa` command, split (esbuild's code splitting) so that each run loads what it needs: the entry
 * answers `--version` alone, and each command family's routes, schemas and packages are chunks loaded
 * by the family that runs (src/cli/families.ts). The chunks' names carry their content's hash, so they
 * are written first without replacing anything a running `lpa` reads; the entry is renamed into
 * place last, then the chunks it no longer reaches are removed.
 */
async function bundleCli(build) {
  const chunks = join(CLI_DIST, 'chunks');
  mkdirSync(chunks, { recursive: true });
  const { outputFiles, metafile } = await build({
    absWorkingDir: ROOT,
    metafile: true,
    entryPoints: { lpa: join(ROOT, 'src/cli/main.ts') },
    outdir: CLI_DIST,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    // Smaller to read and compile at every start; the names stay, so a stack trace still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    // The packages' CommonJS parts call require(); an ES module has none unless it makes one.
    banner: {
      js: "import { createRequire as lpaCreateRequire } from 'node:module';\nconst require = lpaCreateRequire(import.meta.url);",
    },
  });
  // Before the entry: a build that stops half-way leaves an entry older than the sources listed.
  const sources = Object.keys(metafile.inputs).filter((path) => !path.includes('node_modules/'));
  writeFileSync(CLI_SOURCES, `${JSON.stringify(sources, null, 1)}\n`);
  const entry = join(CLI_DIST, 'lpa.mjs');
  for (const file of [
    ...outputFiles.filter((file) => file.path !== entry),
    ...outputFiles.filter((file) => file.path === entry),
  ]) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents, { mode: 0o755 });
    renameSync(partial, file.path);
  }
  const written = new Set(outputFiles.map((file) => file.path));
  for (const name of readdirSync(chunks))
    if (!written.has(join(chunks, name))) rmSync(join(chunks, name), { force: true });
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
  await bundleCli(build);
  await bundle(build, STAMP, {
    entryPoints: [join(ROOT, 'src/runtimes/launcher/main.ts')],
    platform: 'node',
    target: 'node20',
    packages: 'external',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildAll();
