#!/usr/bin/env node
// `lpa` in a checkout of the repository: the compiled CLI of packages/cli (scripts/build.mjs), rebuilt
// first when a source changed, as `npm start` does. The installed package (packages/cli) runs its
// compiled entry directly.
import { cliIsStale } from '../scripts/build-stale.mjs';

if (cliIsStale()) await (await import('../scripts/build.mjs')).buildAll();
await import('../packages/cli/dist/lpa.mjs');
