import { IttyRouter } from 'itty-router';
import type { Contract } from '../contracts/define';

export interface RouteMatch<R extends Contract> {
  route: R;
  params: Record<string, string>;
}

/** One route as itty-router compiled it: the path's regular expression (named groups for `:name`). */
interface CompiledRoute<R extends Contract> {
  route: R;
  pattern: RegExp;
}

/**
 * Finds the declared route for a method and an already parsed path (percent-encoded, as the URL
 * holds it). itty-router compiles each declared path; the match runs on its compiled patterns of
 * that method only, because its own `fetch` parses the URL again and walks the query string and
 * every route of every method on each request (the pipeline has parsed the URL once already).
 * HEAD is served wherever GET is (RFC 9110); the pipeline drops the body.
 */
export function createRouter<R extends Contract>(routes: readonly R[]) {
  const itty = IttyRouter();
  const byMethod = new Map<string, CompiledRoute<R>[]>();
  for (const route of routes) {
    const compiled = itty.routes.length;
    (itty[route.method.toLowerCase() as 'get'] as (path: string) => unknown)(route.path);
    const list = byMethod.get(route.method) ?? [];
    list.push({ route, pattern: itty.routes[compiled]![1] });
    byMethod.set(route.method, list);
  }
  return {
    match(method: string, pathname: string): RouteMatch<R> | undefined {
      for (const { route, pattern } of byMethod.get(method === 'HEAD' ? 'GET' : method) ?? []) {
        const found = pattern.exec(pathname);
        if (found) return { route, params: { ...found.groups } };
      }
      return undefined;
    },
  };
}
