import { storeClient } from '../../../storage/dispatch';
import { createApp, type App } from '../../app';
import { configFrom } from '../../config';
import { storeStub, type WorkerEnv } from './env';
import { hostClient } from '../../host/port';
import { ROUTES } from '../../routes/table';

export { StoreObject } from './store-object';

let app: App | undefined;

/** workerd hands the true peer as `cf.clientIp` ("127.0.0.1:35198", "[::1]:5000"); no header can set it. */
function peerAddress(request: Request): string {
  const peer = (request.cf as { clientIp?: string } | undefined)?.clientIp ?? 'unknown';
  return peer.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
}

export default {
  fetch(request, env, ctx) {
    app ??= createApp(ROUTES, {
      config: configFrom(env),
      store: storeClient((family, method, args) => storeStub(env).invoke(family, method, args)),
      host: hostClient(env.HOST),
    });
    return app(request, { clientIp: peerAddress(request), waitUntil: (promise) => ctx.waitUntil(promise) });
  },
} satisfies ExportedHandler<WorkerEnv>;
