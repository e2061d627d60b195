/**
 * `npm start`: the compiled launcher (dist/launcher.mjs), built first only when `dist/` is missing
 * or older than its sources (scripts/build-stale.mjs, scripts/build.mjs). Plain JavaScript, so start-up loads no TypeScript.
 */
import { isStale } from './build-stale.mjs';

if (isStale()) await (await import('./build.mjs')).buildAll();
await import('../dist/launcher.mjs');
