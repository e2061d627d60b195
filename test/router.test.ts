import { describe, expect, it } from 'vitest';
import { ROUTES } from '../handlers';
import type { Route } from '../handlers/implement';
import { createRouter } from '../src/pipeline/router';

const route = (method: string, path: string) => ({ method, path }) as unknown as Route;
const routes = [
  route('GET', '/a/:id'),
  route('GET', '/a/fixed'),
  route('POST', '/a/fixed'),
  route('GET', '/a'),
  route('GET', '/b/:x/c/:y'),
];
const router = createRouter(routes);
const found = (method: string, path: string) => {
  const match = router.match(method, path);
  return match ? [`${match.route.method} ${match.route.path}`, match.params] : null;
};

describe('router', () => {
  it('takes the first route declared for the method whose segments match', () => {
    expect(found('GET', '/a/fixed')).toEqual(['GET /a/:id', { id: 'fixed' }]);
    expect(found('POST', '/a/fixed')).toEqual(['POST /a/fixed', {}]);
    expect(found('GET', '/b/1/c/2')).toEqual(['GET /b/:x/c/:y', { x: '1', y: '2' }]);
  });

  it('serves HEAD wherever GET is, and nothing for a method without routes', () => {
    expect(found('HEAD', '/a')).toEqual(['GET /a', {}]);
    expect(found('DELETE', '/a')).toBeNull();
    expect(found('get', '/a')).toBeNull();
  });

  it('ignores trailing slashes, and nothing else', () => {
    expect(found('GET', '/a/')).toEqual(['GET /a', {}]);
    expect(found('GET', '/a//')).toEqual(['GET /a', {}]);
    expect(found('GET', '/a/x/')).toEqual(['GET /a/:id', { id: 'x' }]);
    for (const path of ['/', '//', '//a', '/a//x', '/A', '/a/x/y', '/b/1/c', '/b//c/2'])
      expect(found('GET', path), path).toBeNull();
  });

  it('hands a parameter over as the path holds it, percent-encoded', () => {
    expect(found('GET', '/a/x%2Fy')).toEqual(['GET /a/:id', { id: 'x%2Fy' }]);
    expect(found('GET', '/a/..%20.')).toEqual(['GET /a/:id', { id: '..%20.' }]);
  });

  it('finds every declared route by its own path', () => {
    const all = createRouter(ROUTES);
    for (const declared of ROUTES) {
      const path = declared.path.replace(/:(\w+)/g, 'v_$1');
      const match = all.match(declared.method, path);
      expect(match?.route.path, `${declared.method} ${declared.path}`).toBe(declared.path);
    }
  });
});
