#!/usr/bin/env node
// The `lpa` command: the compiled CLI, dist/lpa.mjs (scripts/build.mjs). In a checkout of the
// repository it is rebuilt first when a source changed, as `npm start` does; an installed package
// has no scripts/ and loads the file it was packed with.
import { existsSync } from 'node:fs';

const builder = new URL('../scripts/build.mjs', import.meta.url);
if (existsSync(builder)) {
  const { buildAll, isStale } = await import(builder.href);
  if (isStale()) await buildAll();
}
await import('../dist/lpa.mjs');
