import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, startService, type RunningService } from './service';

/**
 * Bun hands the worker Hosts that are no URL authority; the answer is still the envelope, never
 * Bun's development error page (HTML with paths and source lines), even with NODE_ENV=development.
 */
describe('Bun answers every Host with the envelope', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService('bun', undefined, { NODE_ENV: 'development' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const send = (host: string) =>
    rawExchange(svc.port, `GET /api/v1/version HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

  it.each([
    'a b',
    'user@127.0.0.1:PORT',
    '127.0.0.1:65536',
    '[]:PORT',
    '127.0.0.1:PORT.',
    '127.0.0.1:abc',
    '256.0.0.1:PORT',
    ':PORT',
    '',
  ])('Host %j is 421 request.host_forbidden', async (host) => {
    const res = await send(host.replaceAll('PORT', String(svc.port)));
    expect(res.status).toBe(421);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json).toMatchObject({
      error: { code: 'request.host_forbidden' },
      request_id: res.headers['x-request-id'],
    });
    expect(res.text).not.toMatch(/<html|<!doctype|node_modules|\/src\//i);
  });

  it('still answers a good request afterwards', async () => {
    const res = await rawExchange(
      svc.port,
      `GET /api/v1/version HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\nAuthorization: Bearer ${svc.token}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
  });
});
