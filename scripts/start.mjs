/**
 * `npm start`: the compiled launcher (dist/launcher.mjs), built first only when `dist/` is missing
 * or older than its sources (scripts/build.mjs). Plain JavaScript, so start-up loads no TypeScript.
 */
import { buildAll, isStale } from './build.mjs';

if (isStale()) await buildAll();
await import('../dist/launcher.mjs');
