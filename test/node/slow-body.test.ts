import { describe, expect, it } from 'vitest';
import { BODY_TIMEOUT_MS } from '../../src/pipeline/body';
import { rawExchange } from './raw-socket';
import { RUNTIMES, startService } from './service';

describe('a body that never arrives whole', () => {
  // Bun closes a connection idle for its `idleTimeout` (10 s) first, without an answer; workerd and Deno offer no such timeout.
  it.concurrent.each(RUNTIMES)(
    `is cut, by the runtime or after ${BODY_TIMEOUT_MS} ms with 408 request.body_timeout, on %s`,
    async (runtime) => {
      const service = await startService(runtime);
      try {
        const startedAt = Date.now();
        const head =
          `PUT /api/v1/settings/logs HTTP/1.1\r\nHost: 127.0.0.1:${service.port}\r\nAuthorization: Bearer ${service.token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"retention';
        const answer = await rawExchange(service.port, head, 'wait', BODY_TIMEOUT_MS + 10_000);
        if (runtime === 'bun') {
          expect(answer).toBeNull();
          expect(Date.now() - startedAt).toBeLessThan(BODY_TIMEOUT_MS);
          return;
        }
        expect(answer?.status).toBe(408);
        expect(JSON.parse(answer!.body).error).toEqual({
          code: 'request.body_timeout',
          message: expect.any(String),
          details: { timeout_ms: BODY_TIMEOUT_MS },
        });
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 100);
        // The service answers others all along.
        expect((await fetch(`http://127.0.0.1:${service.port}/status`)).status).toBe(200);
      } finally {
        expect(await service.stop('SIGTERM')).toBe(0);
      }
    },
    BODY_TIMEOUT_MS + 40_000,
  );
});
