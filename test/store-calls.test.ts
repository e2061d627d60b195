import { beforeAll, describe, expect, it } from 'vitest';
import type { Invoke } from '../storage/client';
import { tokenCache } from '../storage/tokens/shared-cache';
import { LOCAL_STORE_KEY } from '../storage/client';
import { call, tokenWith } from './support/api';
import { serviceWith, type TestService } from './support/service';
import { sql, storeOverRpc } from './support/store';

/**
 * At most one store call per request, counted where calls leave the worker (its `invoke`): the
 * token check, the handler's work and the audit of a failure ride in that one call, or need none.
 * Routes that make several calls by design (verify in slices, exports page by page) are tested in
 * their own files.
 */
const calls: string[] = [];
const service = serviceWith({ store: storeOverRpc(calls) });
const SCOPES = ['runtime:control', 'secrets:read', 'rpa:write', 'profiles:read', 'profiles:write'];
let token: string;

/** The store calls the request made, and its answer. */
async function counted(path: string, options: Parameters<typeof call>[1] = {}, fetcher: TestService = service) {
  calls.length = 0;
  const res = await call(path, { token, fetcher, ...options });
  return { res, calls: [...calls] };
}

const auditOf = (res: { headers: Headers }) =>
  sql<{ action: string; result: string; error_code: string | null }>(
    'SELECT action, result, error_code FROM audit_log WHERE request_id = ? ORDER BY seq',
    res.headers.get('x-request-id')!,
  );

beforeAll(async () => {
  ({ token } = await tokenWith(SCOPES));
  // The first request of an isolate asks the store once for its start-up facts and shows whether it shares the token cache.
  await call('/api/v1/version', { token, fetcher: service });
});

describe('store calls per request', () => {
  it('GET /api/v1/version with a scoped token: none', async () => {
    const { res, calls } = await counted('/api/v1/version');
    expect(res.status).toBe(200);
    expect(res.json.db_version).toBeGreaterThan(0);
    expect(calls).toEqual([]);
  });

  it('a store-backed read: one', async () => {
    const { res, calls } = await counted('/api/v1/profiles?limit=50');
    expect(res.status).toBe(200);
    expect(calls).toEqual(['profiles.list']);
  });

  it('the audit retention with the log it holds: one', async () => {
    const { res, calls } = await counted('/api/v1/settings/audit', { token: undefined });
    expect(res.status).toBe(200);
    expect(calls).toEqual(['settings.auditRetentionReport']);
  });

  it('an audited write: one, with its entry', async () => {
    const { res, calls } = await counted('/api/v1/automation/globals/calls_ok', {
      method: 'PUT',
      body: { value: 'a', expected_revision: 0 },
    });
    expect(res.status).toBe(200);
    expect(calls).toEqual(['globals.write']);
    expect(await auditOf(res)).toEqual([{ action: 'globals.write', result: 'ok', error_code: null }]);
  });

  it('a write that fails in the store (409): one, its failure audited in it', async () => {
    const { res, calls } = await counted('/api/v1/automation/globals/calls_ok', {
      method: 'PUT',
      body: { value: 'b', expected_revision: 0 },
    });
    expect(res.status).toBe(409);
    expect(calls).toEqual(['globals.write']);
    expect(await auditOf(res)).toEqual([
      { action: 'globals.write', result: 'error', error_code: 'state.revision_conflict' },
    ]);
  });

  it('a validation failure on an audited route: one, the failure entry', async () => {
    const { res, calls } = await counted('/api/v1/automation/globals/calls_bad', { method: 'PUT', body: { value: 1 } });
    expect(res.status).toBe(400);
    expect(calls).toEqual(['system.recordFailure']);
    expect(await auditOf(res)).toEqual([{ action: 'globals.write', result: 'error', error_code: 'request.invalid' }]);
  });

  it('a denial: at most one (the coalescer writes the first of a window)', async () => {
    const first = await counted('/api/v1/version', { token: 'lpa_not-a-token' });
    const again = await counted('/api/v1/version', { token: 'lpa_not-a-token' });
    expect([first.res.status, again.res.status]).toEqual([401, 401]);
    expect(first.calls).toEqual(['system.recordDenials']);
    expect(again.calls).toEqual([]);
  });

  it('where the token cache does not hold: one more, the token check', async () => {
    // A store that answers from another isolate, as a Durable Object elsewhere would.
    const overRpc = storeOverRpc(calls);
    const elsewhere: Invoke = async (storeCall) => {
      const reply = await overRpc(storeCall);
      const check = storeCall.family === 'tokens' && storeCall.method === 'check';
      return reply.ok && check
        ? { ok: true, value: { ...(reply.value as object), isolate: 'another-isolate' } }
        : reply;
    };
    const apart = serviceWith({ store: elsewhere });
    await counted('/api/v1/version', {}, apart);
    tokenCache(LOCAL_STORE_KEY).storeAnswered('another-isolate');
    expect((await counted('/api/v1/version', {}, apart)).calls).toEqual(['tokens.check']);
    const write = await counted(
      '/api/v1/automation/globals/calls_apart',
      { method: 'PUT', body: { value: 'a', expected_revision: 0 } },
      apart,
    );
    expect(write.res.status).toBe(200);
    expect(write.calls).toEqual(['tokens.check', 'globals.write']);
  });
});
