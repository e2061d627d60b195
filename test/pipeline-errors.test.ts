import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createFront } from '../src/pipeline/app';
import { configFrom } from '../src/shared/config';
import { implementFront } from '../handlers/implement';
import { defineContract } from '../src/contracts/define';

const app = createFront(
  implementFront(
    {
      boom: defineContract({
        method: 'GET',
        path: '/boom',
        home: 'local',
        tag: 'Test',
        summary: 'throws a plain error',
        access: 'public',
        response: z.object({}),
      }),
    },
    {
      boom: () => {
        throw new Error('secret stack detail');
      },
    },
  ),
  {
    config: configFrom({ LPA_PORT: '1234', LPA_DATA_ROOT: '/d', LPA_ADMIN_TOKEN_SHA256: 'x', LPA_VERSION: '0' }),
    onward: () => Promise.reject(new Error('no other route')),
  },
);

describe('unexpected errors', () => {
  it('answer 500 internal with the envelope and no stack or message of the cause, which goes to the log', async () => {
    // The cause is logged for the operator; the test takes that line instead of printing it.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await app(new Request('http://127.0.0.1:1234/boom', { headers: { host: '127.0.0.1:1234' } }), {
      clientIp: '127.0.0.1',
      waitUntil: () => {},
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret stack detail');
    expect(text).not.toContain('at ');
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal', message: 'Internal error.', details: {} },
      request_id: res.headers.get('x-request-id'),
    });
    expect(logged).toHaveBeenCalledExactlyOnceWith(
      `request ${res.headers.get('x-request-id')} failed:`,
      expect.objectContaining({ message: 'secret stack detail' }),
    );
    logged.mockRestore();
  });
});
