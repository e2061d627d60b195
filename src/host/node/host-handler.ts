import { mkdirSync } from 'node:fs';
import { diskHostRoutes } from './disk-routes';
import { fileHostRoutes } from './files-routes';
import { keyHostRoutes } from './keys-routes';
import { logHostRoutes } from './logs-routes';
import { sealHostRoutes } from './seals-routes';

export type HostHandler = (request: Request) => Promise<Response>;

/**
 * The machine side of the host port: a fetch-style handler over the data root. The launcher serves
 * it on a unix socket for workerd; the tests hand it to Miniflare as a service binding, so they
 * exercise this very code. One module per concern adds its routes here.
 */
export function createHostHandler(dataRoot: string): HostHandler {
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  const routes = [
    ...diskHostRoutes(dataRoot), ...keyHostRoutes(dataRoot), ...fileHostRoutes(dataRoot), ...logHostRoutes(dataRoot),
    ...sealHostRoutes(dataRoot),
  ];
  return async (request) => {
    const { pathname } = new URL(request.url);
    try {
      for (const route of routes) {
        const match = route.method === request.method ? route.pattern.exec(pathname) : null;
        if (match) return await route.handle(request, match.slice(1));
      }
      return Response.json({ error: 'no such host route' }, { status: 404 });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    }
  };
}
