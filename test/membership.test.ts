import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FETCH_TIMEOUT_MS } from '../handlers/membership/exchange';
import { REFRESH_AFTER_MS } from '../handlers/membership/verification';
import { call } from './support/api';
import { confirmed, membershipUrl, serverCounts, signedInService, statusRequests, steer } from './support/membership';
import { rawRows } from './support/profiles';
import type { TestService } from './support/service';

const STATUS = '/api/v1/account/status';
const SIGNED_OUT = { authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null };
const profileCount = async () => (await call('/api/v1/profiles?limit=1')).json.total as number;

let services = 0;
/**
 * A service of its own for a test, with a URL of its own on the test membership server, so that
 * neither what a service keeps in memory nor the store's saved confirmation carries over.
 */
function freshService(): { url: string; service: TestService } {
  services += 1;
  const url = `${membershipUrl()}/service-${services}`;
  return { url, service: signedInService(url) };
}
const statusOf = (service: TestService) => call(STATUS, { fetcher: service });
/** What the store counts of an account's usage, whatever the server said: its profiles, and the starts of the UTC day (none here). */
async function storeUsage() {
  const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  return {
    profiles: await profileCount(),
    startsToday: 0,
    day: new Date(day).toISOString().slice(0, 10),
    resetAt: day + 86_400_000,
  };
}
const createVia = (service: TestService, name: string) =>
  call('/api/v1/profiles', { method: 'POST', body: { name }, fetcher: service });
/** Time passes (the clock the service reads; timers are real). */
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
/** Until the one exchange a test started has reached the server (it runs in the background). */
async function serverHolds(count: number): Promise<void> {
  while ((await serverCounts()).held !== count) await new Promise((resolve) => setTimeout(resolve, 10));
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now());
});

afterAll(async () => {
  vi.useRealTimers();
  await steer({ answer: { status: 200, body: SIGNED_OUT } });
});

beforeEach(async () => {
  await steer({ answer: { status: 200, body: SIGNED_OUT } });
});

describe('account status', () => {
  it('local mode (no membership server): nobody is signed in and no server is asked', async () => {
    const asked = await statusRequests();
    const res = await call(STATUS);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(SIGNED_OUT);
    expect(await statusRequests()).toBe(asked);
  });

  it("online: the server-confirmed status, with usage's profiles and starts of the day the store's own counts, saved until verifiedUntil", async () => {
    const { url, service } = freshService();
    const answer = confirmed();
    await steer({ answer: { status: 200, body: answer } });
    const asked = await statusRequests();
    const res = await statusOf(service);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...answer,
      offline: false,
      account: { ...answer.account, usage: { ...answer.account.usage, ...(await storeUsage()) } },
    });
    expect(await statusRequests()).toBe(asked + 1);
    const [cached] = await rawRows('account_status_cache');
    expect(cached).toMatchObject({ url, verified_until: answer.verifiedUntil });
    expect(JSON.parse(String(cached!.status))).toEqual(answer);
  });

  it('a valid confirmation is the answer without asking; once it is older than the refresh age, a request refreshes it in the background', async () => {
    const { service } = freshService();
    const first = confirmed({ profiles: 40 });
    await steer({ answer: { status: 200, body: first } });
    await statusOf(service);
    const asked = await statusRequests();
    later(REFRESH_AFTER_MS - 1);
    expect((await statusOf(service)).json).toMatchObject({
      offline: false,
      validForMs: first.validForMs - REFRESH_AFTER_MS + 1,
      account: { limits: { profiles: 40 } },
    });
    expect(await statusRequests()).toBe(asked);

    const second = confirmed({ profiles: 41 });
    await steer({ answer: { status: 200, body: second } });
    later(1);
    // This answer is still the first confirmation; the refresh it started brings the second.
    expect((await statusOf(service)).json).toMatchObject({ offline: false, account: { limits: { profiles: 40 } } });
    await service.idle();
    expect(await statusRequests()).toBe(asked + 1);
    expect((await statusOf(service)).json).toMatchObject({
      offline: false,
      verifiedUntil: second.verifiedUntil,
      account: { limits: { profiles: 41 } },
    });
  });

  it('a signed-out answer is served as it is', async () => {
    const res = await statusOf(freshService().service);
    expect(res.json).toEqual({ ...SIGNED_OUT, offline: false });
  });

  it('offline within validity: the cached status with offline: true, also after a restart', async () => {
    const { url, service } = freshService();
    const answer = confirmed();
    await steer({ answer: { status: 200, body: answer } });
    expect((await statusOf(service)).json.offline).toBe(false);
    await steer({ down: true });
    later(REFRESH_AFTER_MS);
    await statusOf(service);
    await service.idle();
    const expected = async () => ({
      ...answer,
      offline: true,
      validForMs: answer.verifiedUntil - Date.now(),
      account: { ...answer.account, usage: { ...answer.account.usage, ...(await storeUsage()) } },
    });
    expect((await statusOf(service)).json).toEqual(await expected());
    // A restarted service starts from the store's copy.
    expect((await statusOf(signedInService(url))).json).toEqual(await expected());
    // An answer that is not an account status is no confirmation either: the cache still serves.
    for (const wrong of [
      { status: 200, body: { authenticated: 'yes' } },
      { status: 502, body: { oops: true } },
    ]) {
      await steer({ answer: wrong });
      later(REFRESH_AFTER_MS);
      await statusOf(service);
      await service.idle();
      expect((await statusOf(service)).json).toMatchObject({ authenticated: true, offline: true });
    }
  });

  it('expired: once the confirmation has run out, nobody is signed in and error says why', async () => {
    const { service } = freshService();
    const answer = confirmed({ verifiedUntil: Date.now() + 60_000 });
    await steer({ answer: { status: 200, body: answer } });
    expect((await statusOf(service)).json).toMatchObject({ authenticated: true, offline: false });
    await steer({ down: true });
    later(60_000);
    const res = await statusOf(service);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      authenticated: false,
      offline: true,
      verifiedUntil: answer.verifiedUntil,
      validForMs: 0,
      account: null,
      error: expect.stringMatching(/could not confirm the account .* no earlier confirmation is still valid/),
    });
  });

  it('a server that was never reached: error set, no account', async () => {
    const res = await statusOf(signedInService('http://127.0.0.1:9/never-listened'));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      authenticated: false,
      offline: true,
      verifiedUntil: 0,
      validForMs: 0,
      account: null,
      error: expect.any(String),
    });
  });

  it('a server answering garbage with no valid confirmation cached: error set', async () => {
    const { service } = freshService();
    await steer({ answer: { status: 200, body: confirmed({ verifiedUntil: 1 }) } });
    await statusOf(service);
    await steer({ answer: { status: 200, body: { authenticated: true, account: 'premium' } } });
    const res = await statusOf(service);
    expect(res.json).toEqual({
      authenticated: false,
      offline: true,
      verifiedUntil: 1,
      validForMs: 0,
      account: null,
      error: expect.stringContaining('not an account status'),
    });
  });
});

describe('a membership server that accepts and never answers', () => {
  it('delays nobody while the confirmation is valid: status and profile creation answer, with one refresh under way', async () => {
    const { service } = freshService();
    const answer = confirmed({ profiles: null });
    await steer({ answer: { status: 200, body: answer } });
    await statusOf(service);
    await steer({ hang: true });
    later(REFRESH_AFTER_MS);
    const asked = await statusRequests();
    expect((await statusOf(service)).json).toMatchObject({ authenticated: true, offline: false });
    await serverHolds(1);
    // Every one of these finds the confirmation older than the refresh age; none waits, none asks again.
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => statusOf(service)),
      ...Array.from({ length: 3 }, (_, i) => createVia(service, `hang-${i}`)),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 201, 201, 201]);
    for (const res of answers.slice(0, 5))
      expect(res.json).toMatchObject({ authenticated: true, verifiedUntil: answer.verifiedUntil });
    // The one exchange is still unanswered: so none of those answers waited for it.
    expect(await serverCounts()).toEqual({ statusRequests: asked + 1, held: 1 });
    // Let it go with the server down: it fails (workerd retries a GET whose connection dropped
    // before any answer, so the retry must find the server down too), and the status says the
    // server is not reachable.
    await steer({ down: true });
    await service.idle();
    expect((await statusOf(service)).json).toMatchObject({ authenticated: true, offline: true });
  });

  it(`without a valid confirmation, requests wait for one exchange, at most ${FETCH_TIMEOUT_MS / 1000} s, then answer as expired`, {
    timeout: 60_000,
  }, async () => {
    const { service } = freshService();
    const answer = confirmed({ profiles: 0, verifiedUntil: Date.now() + 60_000 });
    await steer({ answer: { status: 200, body: answer } });
    expect((await createVia(service, 'hang-refused')).json.error.code).toBe('account.limit_reached');
    await steer({ hang: true });
    later(60_000);
    const asked = await statusRequests();
    const answers = await Promise.all([
      statusOf(service),
      statusOf(service),
      statusOf(service),
      createVia(service, 'hang-expired'),
    ]);
    for (const res of answers.slice(0, 3)) {
      expect(res.json).toEqual({
        authenticated: false,
        offline: true,
        verifiedUntil: answer.verifiedUntil,
        validForMs: 0,
        account: null,
        error: expect.stringContaining(`did not answer within ${FETCH_TIMEOUT_MS / 1000} s`),
      });
    }
    // Nobody is signed in, so no limit applies.
    expect(answers[3]!.status).toBe(201);
    expect((await serverCounts()).statusRequests).toBe(asked + 1);
    // LPA gave the exchange up: the server holds nothing any more.
    await serverHolds(0);
  });
});

describe('profile limits of a signed-in account', () => {
  it('creating beyond limits.profiles answers 403 account.limit_reached; usage is the true count', async () => {
    const { service } = freshService();
    const count = await profileCount();
    await steer({ answer: { status: 200, body: confirmed({ profiles: count + 2 }) } });
    expect((await createVia(service, 'limit-1')).status).toBe(201);
    expect((await createVia(service, 'limit-2')).status).toBe(201);
    const refused = await createVia(service, 'limit-3');
    expect(refused.status).toBe(403);
    expect(refused.json.error).toEqual({
      code: 'account.limit_reached',
      message: expect.any(String),
      details: { limit: 'profiles', max: count + 2, usage: count + 2 },
    });
    expect(await profileCount()).toBe(count + 2);
    expect((await statusOf(service)).json.account.usage.profiles).toBe(count + 2);
    // The same store in local mode, or signed out, has no limit.
    expect((await call('/api/v1/profiles', { method: 'POST', body: { name: 'limit-local' } })).status).toBe(201);
    await steer({ answer: { status: 200, body: SIGNED_OUT } });
    expect((await createVia(freshService().service, 'limit-signed-out')).status).toBe(201);
  });

  it('limit 0 refuses the first profile; limit null means no limit', async () => {
    await steer({ answer: { status: 200, body: confirmed({ profiles: 0 }) } });
    expect((await createVia(freshService().service, 'limit-zero')).json.error.code).toBe('account.limit_reached');
    await steer({ answer: { status: 200, body: confirmed({ profiles: null }) } });
    expect((await createVia(freshService().service, 'limit-null')).status).toBe(201);
  });

  it('without entitlements.profiles creation answers 403 account.entitlement_missing', async () => {
    await steer({ answer: { status: 200, body: confirmed({ entitled: false }) } });
    const res = await createVia(freshService().service, 'not-entitled');
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({
      code: 'account.entitlement_missing',
      message: expect.any(String),
      details: { entitlement: 'profiles' },
    });
  });

  it('without entitlements.synchronizer the synchronizer does not start (403), before it starts any browser', async () => {
    await steer({ answer: { status: 200, body: confirmed() } });
    const res = await call('/api/v1/automation/synchronizer/start', {
      method: 'POST',
      body: { source_id: 'sync-source', follower_ids: ['sync-follower'] },
      fetcher: freshService().service,
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({
      code: 'account.entitlement_missing',
      details: { entitlement: 'synchronizer' },
    });
  });

  it('the cached confirmation keeps the limits while the server is unreachable', async () => {
    const { service } = freshService();
    const count = await profileCount();
    await steer({ answer: { status: 200, body: confirmed({ profiles: count }) } });
    await statusOf(service);
    await steer({ down: true });
    later(REFRESH_AFTER_MS);
    await statusOf(service);
    await service.idle();
    const res = await createVia(service, 'limit-offline');
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('account.limit_reached');
  });
});
