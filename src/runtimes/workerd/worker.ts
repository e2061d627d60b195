import { devtoolsNotFound } from '../../host/runs-schema';
import type { App } from '../../pipeline/app';
import { configFrom } from '../../shared/config';
import { storeStub, type WorkerEnv } from './env';
import { WorkerEntrypoint } from 'cloudflare:workers';
import { hostClient } from '../../host/port';
import type { Config } from '../../shared/config';
import { useSha256Hex } from '../../shared/crypto';
import { wasmSha256Hex } from '../../shared/sha256-wasm';
import sha256Wasm from './sha256.wasm';
import { localFront } from '../service';
import { arrivingRequest } from '../../pipeline/arrival';

export { DurableStoreObject } from '../../object/durable-store-object';

// workerd's node:crypto costs microseconds per call whatever the length (docs/decisions/002-webassembly-sha256.md,
// SHA-256 from WebAssembly); the compiled module hashes an audit entry in about half the time. Every isolate
// that runs this bundle, the Worker's and the Durable Object's (one and the same under `workerd
// serve`), loads this module first, so this one call serves both.
useSha256Hex(wasmSha256Hex(sha256Wasm), 'hash-wasm');

let service: { app: App; config: Config } | undefined;

/** workerd hands the true peer as `cf.clientIp` ("127.0.0.1:35198", "[::1]:5000"); no header can set it. */
function peerAddress(request: Request): string {
  const peer = (request.cf as { clientIp?: string } | undefined)?.clientIp ?? 'unknown';
  return peer.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
}

function startService(env: WorkerEnv): { app: App; config: Config } {
  const config = configFrom(env);
  return {
    config,
    app: localFront({
      config,
      host: hostClient(env.HOST),
      object: (request, sender, url) => storeStub(env).fetch(arrivingRequest(request, url.href, sender)),
      // The launcher's host server relays a run's endpoint; workerd passes a WebSocket upgrade through as it is.
      // Its bare 404 is a path that is no live run's: answered as Bun's and Deno's in-process host does.
      devtools: async (request) => {
        const answer = await env.HOST.fetch(request.url, request);
        if (answer.status === 404) throw devtoolsNotFound(request.method);
        return answer;
      },
    }),
  };
}

export default {
  async fetch(request, env, ctx) {
    service ??= startService(env);
    const { app } = service;
    return app(request, { clientIp: peerAddress(request), waitUntil: (promise) => ctx.waitUntil(promise) });
  },
} satisfies ExportedHandler<WorkerEnv>;

/**
 * Served only on the launcher's private flush socket (./flush-logs.ts): writes the buffered `api`
 * log lines of the front and of the store's object, and answers 204 once the host has them. Module
 * state is shared by the isolate, so the front's is the very buffer the default entrypoint fills.
 */
export class LogFlush extends WorkerEntrypoint<WorkerEnv> {
  override async fetch(): Promise<Response> {
    await Promise.all([service?.app.flushLogs(), storeStub(this.env).flushLogs()]);
    return new Response(null, { status: 204 });
  }
}
