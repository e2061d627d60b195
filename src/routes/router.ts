import { IttyRouter, type IRequest } from 'itty-router';
import type { AnyRoute } from './define';

export interface RouteMatch {
  route: AnyRoute;
  params: Record<string, string>;
}

/** Finds the declared route for a method and path; itty-router does the matching. */
export function createRouter(routes: readonly AnyRoute[]) {
  const router = IttyRouter<IRequest, [], RouteMatch>();
  for (const route of routes) {
    const add = router[route.method.toLowerCase() as 'get'] as (path: string, handler: (req: IRequest) => RouteMatch) => unknown;
    const found = (req: IRequest): RouteMatch => ({ route, params: { ...req.params } });
    add(route.path, found);
    // RFC 9110: HEAD is served wherever GET is; the pipeline drops the body.
    if (route.method === 'GET') router.head(route.path, found);
  }
  return {
    match: (request: Request): Promise<RouteMatch | undefined> =>
      router.fetch({ method: request.method, url: request.url } as IRequest),
  };
}
