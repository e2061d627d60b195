import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/runtimes/workerd/worker';

/**
 * The worker's own fetch handler, called in this isolate. SELF.fetch in vitest-pool-workers 0.15
 * gets slower with every call made in a file (3 ms at first, hundreds of ms after a few hundred
 * calls), which tests that send thousands of requests cannot afford; this stays flat.
 */
export const directFetcher = {
  async fetch(url: string, init: RequestInit): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(url, init) as Parameters<typeof worker.fetch>[0], env, ctx);
    const body = await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return new Response(response.status === 204 ? null : body, { status: response.status, headers: response.headers });
  },
};
