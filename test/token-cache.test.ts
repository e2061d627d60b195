import { describe, expect, it } from 'vitest';
import type { Invoke } from '../storage/client';
import { tokenCache } from '../storage/tokens/shared-cache';
import { LOCAL_STORE_KEY } from '../storage/client';
import { call, tokenWith } from './support/api';
import { serviceWith } from './support/service';
import { storeOverRpc } from './support/store';

/**
 * A scoped token is checked from the token cache the store shares with the worker, where it shares
 * it (storage/tokens/shared-cache.ts), and by a store call wherever the store answers from another
 * module instance. Revocation and expiry take effect on the next request on both paths.
 */
function paths() {
  const calls: string[] = [];
  const overRpc = storeOverRpc(calls);
  // A store that reports another isolate: as if the Durable Object ran elsewhere.
  const elsewhere: Invoke = async (call) => {
    const reply = await overRpc(call);
    return reply.ok && call.family === 'tokens' && call.method === 'check'
      ? { ok: true, value: { ...(reply.value as object), isolate: 'another-isolate' } }
      : reply;
  };
  return { calls, shared: serviceWith({ store: overRpc }), apart: serviceWith({ store: elsewhere }) };
}

describe('authentication of a scoped token', () => {
  it('needs no store call once the store has shown that it shares the cache', async () => {
    const { calls, shared } = paths();
    const { token } = await tokenWith(['audit:read']);
    expect((await call('/api/v1/version', { token, fetcher: shared })).status).toBe(200);
    calls.length = 0;
    expect((await call('/api/v1/version', { token, fetcher: shared })).status).toBe(200);
    expect(calls.filter((name) => name === 'tokens.check')).toEqual([]);
  });

  it('asks the store on every request where the store answers from another isolate', async () => {
    const { calls, apart } = paths();
    const { token } = await tokenWith(['audit:read']);
    // What the worker learns from the first answer of such a store (the cache is per isolate, and shared by the tests of this file).
    tokenCache(LOCAL_STORE_KEY).storeAnswered('another-isolate');
    for (let n = 0; n < 3; n++) expect((await call('/api/v1/version', { token, fetcher: apart })).status).toBe(200);
    expect(calls.filter((name) => name === 'tokens.check')).toHaveLength(3);
  });

  it.each(['shared', 'apart'] as const)('refuses a revoked token on the very next request (%s)', async (path) => {
    const service = paths()[path];
    const { id, token } = await tokenWith(['audit:read']);
    expect((await call('/api/v1/version', { token, fetcher: service })).status).toBe(200);
    expect((await call(`/api/v1/tokens/${id}`, { method: 'DELETE', fetcher: service })).status).toBe(200);
    expect((await call('/api/v1/version', { token, fetcher: service })).status).toBe(401);
  });
});
