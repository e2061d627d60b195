import { build, stop } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../runtimes/workerd/worker.ts', import.meta.url));

/**
 * Bundles the worker into one ES module, as workerd loads it. The launcher bundles once, so
 * esbuild's helper process is stopped afterwards rather than kept resident for the service's life.
 */
export async function bundleWorker(outfile: string): Promise<void> {
  try {
    await build({
      entryPoints: [ENTRY],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      external: ['cloudflare:*', 'node:*'],
      mainFields: ['module', 'main'],
      conditions: ['workerd', 'worker', 'import'],
      logLevel: 'error',
    });
  } finally {
    await stop();
  }
}
