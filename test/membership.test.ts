import { beforeEach, describe, expect, it } from 'vitest';
import { call } from './support/api';
import { confirmed, membershipUrl, signedInService, statusRequests, steer } from './support/membership';
import { rawRows } from './support/profiles';

const STATUS = '/api/v1/account/status';
const service = signedInService();
const profileCount = async () => (await call('/api/v1/profiles?limit=1')).json.total as number;
const createVia = (name: string) => call('/api/v1/profiles', { method: 'POST', body: { name }, fetcher: service });

beforeEach(async () => {
  await steer({ answer: { status: 200, body: { authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null } } });
});

describe('account status', () => {
  it('local mode (no membership server): nobody is signed in and no server is asked', async () => {
    const asked = await statusRequests();
    const res = await call(STATUS);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null });
    expect(await statusRequests()).toBe(asked);
  });

  it('online: the server-confirmed status, with usage.profiles the true count, saved until verifiedUntil', async () => {
    const answer = confirmed();
    await steer({ answer: { status: 200, body: answer } });
    const asked = await statusRequests();
    const res = await call(STATUS, { fetcher: service });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...answer, offline: false, account: { ...answer.account, usage: { ...answer.account.usage, profiles: await profileCount() } },
    });
    expect(await statusRequests()).toBe(asked + 1);
    const [cached] = await rawRows('account_status_cache');
    expect(cached).toMatchObject({ url: membershipUrl(), verified_until: answer.verifiedUntil });
    expect(JSON.parse(String(cached!.status))).toEqual(answer);
  });

  it('a signed-out answer is served as it is', async () => {
    const res = await call(STATUS, { fetcher: service });
    expect(res.json).toEqual({ authenticated: false, offline: false, verifiedUntil: 0, validForMs: 0, account: null, error: null });
  });

  it('offline within validity: the cached status with offline: true, also after a restart', async () => {
    const answer = confirmed();
    await steer({ answer: { status: 200, body: answer } });
    expect((await call(STATUS, { fetcher: service })).json.offline).toBe(false);
    await steer({ down: true });
    for (const fetcher of [service, signedInService()]) {
      const res = await call(STATUS, { fetcher });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        ...answer,
        offline: true,
        validForMs: expect.any(Number),
        account: { ...answer.account, usage: { ...answer.account.usage, profiles: await profileCount() } },
      });
      expect(res.json.validForMs).toBeGreaterThan(0);
      expect(res.json.validForMs).toBeLessThanOrEqual(answer.validForMs);
    }
    // An answer that is not an account status is no confirmation either: the cache still serves.
    await steer({ answer: { status: 200, body: { authenticated: 'yes' } } });
    expect((await call(STATUS, { fetcher: service })).json).toMatchObject({ authenticated: true, offline: true });
    await steer({ answer: { status: 502, body: { oops: true } } });
    expect((await call(STATUS, { fetcher: service })).json).toMatchObject({ authenticated: true, offline: true });
  });

  it('expired: once the confirmation has run out, nobody is signed in and error says why', async () => {
    const answer = confirmed({ verifiedUntil: Date.now() - 1000 });
    await steer({ answer: { status: 200, body: answer } });
    expect((await call(STATUS, { fetcher: service })).json).toMatchObject({ authenticated: true, offline: false });
    await steer({ down: true });
    const res = await call(STATUS, { fetcher: service });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      authenticated: false, offline: true, verifiedUntil: answer.verifiedUntil, validForMs: 0, account: null,
      error: expect.stringMatching(/could not confirm the account .* no earlier confirmation is still valid/),
    });
  });

  it('a server that was never reached: error set, no account', async () => {
    const nowhere = signedInService('http://127.0.0.1:9/never-listened');
    const res = await call(STATUS, { fetcher: nowhere });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ authenticated: false, offline: true, verifiedUntil: 0, validForMs: 0, account: null, error: expect.any(String) });
  });

  it('a server answering garbage with no valid confirmation cached: error set', async () => {
    await steer({ answer: { status: 200, body: confirmed({ verifiedUntil: 1 }) } });
    await call(STATUS, { fetcher: service });
    await steer({ answer: { status: 200, body: { authenticated: true, account: 'premium' } } });
    const res = await call(STATUS, { fetcher: service });
    expect(res.json).toEqual({
      authenticated: false, offline: true, verifiedUntil: 1, validForMs: 0, account: null,
      error: expect.stringContaining('not an account status'),
    });
  });
});

describe('profile limits of a signed-in account', () => {
  it('creating beyond limits.profiles answers 403 account.limit_reached; usage is the true count', async () => {
    const count = await profileCount();
    await steer({ answer: { status: 200, body: confirmed({ profiles: count + 2 }) } });
    expect((await createVia('limit-1')).status).toBe(201);
    expect((await createVia('limit-2')).status).toBe(201);
    const refused = await createVia('limit-3');
    expect(refused.status).toBe(403);
    expect(refused.json.error).toEqual({
      code: 'account.limit_reached', message: expect.any(String), details: { limit: 'profiles', max: count + 2, usage: count + 2 },
    });
    expect(await profileCount()).toBe(count + 2);
    expect((await call(STATUS, { fetcher: service })).json.account.usage.profiles).toBe(count + 2);
    // The same service in local mode, or signed out, has no limit.
    expect((await call('/api/v1/profiles', { method: 'POST', body: { name: 'limit-local' } })).status).toBe(201);
    await steer({ answer: { status: 200, body: { authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null } } });
    expect((await createVia('limit-signed-out')).status).toBe(201);
  });

  it('limit 0 refuses the first profile; limit null means no limit', async () => {
    await steer({ answer: { status: 200, body: confirmed({ profiles: 0 }) } });
    expect((await createVia('limit-zero')).json.error.code).toBe('account.limit_reached');
    await steer({ answer: { status: 200, body: confirmed({ profiles: null }) } });
    expect((await createVia('limit-null')).status).toBe(201);
  });

  it('without entitlements.profiles creation answers 403 account.entitlement_missing', async () => {
    await steer({ answer: { status: 200, body: confirmed({ entitled: false }) } });
    const res = await createVia('not-entitled');
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ code: 'account.entitlement_missing', message: expect.any(String), details: { entitlement: 'profiles' } });
  });

  it('the cached confirmation keeps the limits while the server is unreachable', async () => {
    const count = await profileCount();
    await steer({ answer: { status: 200, body: confirmed({ profiles: count }) } });
    await call(STATUS, { fetcher: service });
    await steer({ down: true });
    const res = await createVia('limit-offline');
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('account.limit_reached');
  });
});
