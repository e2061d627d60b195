import { createApp, type App } from '../../pipeline/app';
import { configFrom } from '../../shared/config';
import { storeStub, type WorkerEnv } from './env';
import { FLUSH_LOGS_PATH } from './flush-logs';
import { hostClient } from '../../host/port';
import { ROUTES } from '../../../handlers';
import { hasAdminToken } from '../../pipeline/authenticate';
import { parsedUrl } from '../../pipeline/access-log';
import type { Config } from '../../shared/config';
import { useSha256Hex } from '../../shared/crypto';
import { wasmSha256Hex } from '../../shared/sha256-wasm';
import sha256Wasm from './sha256.wasm';

export { StoreObject } from '../../../storage/durable-object';

// workerd's node:crypto costs microseconds per call whatever the length (README, Audit log: how
// verify hashes); the compiled module hashes an audit entry in about half the time. Every isolate
// that runs this bundle, the Worker's and the Durable Object's (one and the same under `workerd
// serve`), loads this module first, so this one call serves both.
useSha256Hex(wasmSha256Hex(sha256Wasm), 'hash-wasm');

let service: { app: App; config: Config } | undefined;

const isFlushRequest = (request: Request, config: Config) =>
  request.method === 'POST' && hasAdminToken(request, config) && parsedUrl(request)?.pathname === FLUSH_LOGS_PATH;

/** workerd hands the true peer as `cf.clientIp` ("127.0.0.1:35198", "[::1]:5000"); no header can set it. */
function peerAddress(request: Request): string {
  const peer = (request.cf as { clientIp?: string } | undefined)?.clientIp ?? 'unknown';
  return peer.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
}

function startService(env: WorkerEnv): { app: App; config: Config } {
  const config = configFrom(env);
  return { config, app: createApp(ROUTES, { config, store: (call) => storeStub(env).invoke(call), host: hostClient(env.HOST) }) };
}

export default {
  async fetch(request, env, ctx) {
    service ??= startService(env);
    const { app, config } = service;
    if (isFlushRequest(request, config)) {
      await app.flushLogs();
      return new Response(null, { status: 204 });
    }
    return app(request, { clientIp: peerAddress(request), waitUntil: (promise) => ctx.waitUntil(promise) });
  },
} satisfies ExportedHandler<WorkerEnv>;
