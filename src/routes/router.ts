import type { AnyRoute } from './define';

export interface RouteMatch {
  route: AnyRoute;
  params: Record<string, string>;
}

/** A declared path cut at `/`: a fixed segment as it is, a parameter as `{ param: name }`. */
type Segment = string | { param: string };

interface CompiledRoute {
  route: AnyRoute;
  segments: Segment[];
}

const compile = (route: AnyRoute): CompiledRoute => ({
  route,
  segments: route.path.split('/').slice(1).map((part) => (part.startsWith(':') ? { param: part.slice(1) } : part)),
});

/** The route's parameters from the path's segments, or null when the path is not this route's. */
function paramsOf({ segments }: CompiledRoute, parts: readonly string[]): Record<string, string> | null {
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (typeof segment === 'string') {
      if (part !== segment) return null;
    } else {
      if (part === '') return null;
      params[segment.param] = part;
    }
  }
  return params;
}

/**
 * Finds the declared route for a method and an already parsed path (percent-encoded, as the URL
 * holds it): the first route declared for the method whose segments match, a `:name` segment
 * taking one non-empty segment. Trailing slashes are ignored. HEAD is served wherever GET is (RFC
 * 9110); the pipeline drops the body. Written here rather than taken from itty-router, which parsed
 * the URL again and tried a regular expression per route on every request.
 */
export function createRouter(routes: readonly AnyRoute[]) {
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const route of routes) {
    const list = byMethod.get(route.method) ?? [];
    list.push(compile(route));
    byMethod.set(route.method, list);
  }
  return {
    match(method: string, pathname: string): RouteMatch | undefined {
      const candidates = byMethod.get(method === 'HEAD' ? 'GET' : method);
      if (candidates === undefined) return undefined;
      let end = pathname.length;
      while (end > 1 && pathname.charCodeAt(end - 1) === 47 /* '/' */) end--;
      const parts = pathname.slice(1, end).split('/');
      for (const candidate of candidates) {
        const params = paramsOf(candidate, parts);
        if (params !== null) return { route: candidate.route, params };
      }
      return undefined;
    },
  };
}
