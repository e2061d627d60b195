import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../src/runtimes/workerd/worker';

/**
 * The worker's own fetch handler, called in this isolate. `exports.default.fetch` (the worker's
 * loopback binding) in vitest-pool-workers 0.15 gets slower with every call made in a file (3 ms at
 * first, tens to hundreds of ms after a few hundred calls), which tests that send thousands of
 * requests cannot afford; this stays flat. It does not wait for the work the answer left running
 * (`waitUntil`): the `api` log's batch timer would hold every request for its delay.
 */
export const directFetcher = {
  async fetch(url: string, init: RequestInit): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(url, init) as Parameters<typeof worker.fetch>[0], env, ctx);
    const body = await response.arrayBuffer();
    return new Response(response.status === 204 ? null : body, { status: response.status, headers: response.headers });
  },
};
