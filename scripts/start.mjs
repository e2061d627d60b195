/**
 * `npm start`: the compiled launcher (dist/launcher.mjs), built first only when `dist/` is missing
 * or older than its sources (scripts/build-stale.mjs, scripts/build.mjs). Plain JavaScript, so start-up loads no TypeScript.
 * `npm start` runs it on Bun, whose sockets relay DevTools messages for half Node's CPU (docs/decisions/008-launcher-on-bun.md).
 */
import { isStale } from './build-stale.mjs';

if (isStale()) await (await import('./build.mjs')).buildAll();
await import('../dist/launcher.mjs');
