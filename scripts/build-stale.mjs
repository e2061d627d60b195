/**
 * What `npm run build` (scripts/build.mjs) writes, and whether it is stale: apart from the builder,
 * so that `npm start` and `bin/lpa.mjs`, which ask at every start, load neither it nor esbuild.
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
/** The `lpa` command, in the folder of its own package (packages/cli), which `npm pack` packs. */
export const CLI_DIST = join(ROOT, 'packages/cli/dist');
/** The files the CLI's last build read (its esbuild metafile's inputs, packages excluded), written by the build. */
export const CLI_SOURCES = join(DIST, 'cli-sources.json');
/** Written last, so a build that stopped half-way is still stale. */
export const STAMP = join(DIST, 'launcher.mjs');
/** What the bundles are built from: every change there makes the build stale. */
const SOURCES = [
  'src',
  'storage',
  'handlers',
  'package.json',
  'package-lock.json',
  'packages/cli/package.json',
  'scripts/build.mjs',
  'scripts/build-stale.mjs',
  'scripts/build-console.mjs',
  'scripts/sha256-wasm.mjs',
];

const mtimeOf = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** The newest change of a file, or of a folder and everything in it (one listing of the whole tree: this runs at every start). */
function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return stat?.mtimeMs ?? 0;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    newest = Math.max(newest, mtimeOf(join(entry.parentPath ?? entry.path, entry.name)));
  }
  return newest;
}

/** The newest change of the sources the bundles are built from, and of `more` (paths from the root). */
export function newestSource(more = []) {
  return Math.max(...[...SOURCES, ...more].map((source) => newestChange(join(ROOT, source))));
}

/** True when `dist/` or the CLI's bundle is missing, or older than a source it is built from. */
export function isStale() {
  return newestSource() > Math.min(mtimeOf(STAMP), mtimeOf(join(CLI_DIST, 'lpa.mjs')));
}

/** What else decides the CLI's bundle: the packages' versions and the build itself. */
const CLI_BUILD_FILES = ['package-lock.json', 'scripts/build.mjs', 'scripts/build-stale.mjs'];

/**
 * True when the CLI's bundle is missing or older than a file its last build read. `bin/lpa.mjs` asks
 * this at every run: about 100 files named by the build, where `isStale()` walks every source.
 */
export function cliIsStale() {
  const built = mtimeOf(join(CLI_DIST, 'lpa.mjs'));
  let sources;
  try {
    sources = JSON.parse(readFileSync(CLI_SOURCES, 'utf8'));
  } catch {
    return true;
  }
  return [...sources, ...CLI_BUILD_FILES].some((file) => mtimeOf(join(ROOT, file)) > built);
}
