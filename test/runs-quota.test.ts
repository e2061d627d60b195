import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api';
import { confirmed, signedInService, steer } from './support/membership';
import type { TestService } from './support/service';

/** A signed-in account that may run one profile at a time and start two a day. */
function limited() {
  const status = confirmed();
  return {
    ...status,
    account: { ...status.account, limits: { ...status.account.limits, runningProfiles: 1, dailyStarts: 2 } },
  };
}

describe("a signed-in account's run limits", { timeout: 60_000 }, () => {
  let service: TestService;
  const profile = async () =>
    (await call('/api/v1/profiles', { method: 'POST', body: { name: `q-${crypto.randomUUID()}` }, fetcher: service }))
      .json.id as string;
  const start = (id: string) =>
    call(`/api/v1/profiles/${id}/start`, { method: 'POST', body: { headless: true }, fetcher: service });
  const stop = (id: string) => call(`/api/v1/profiles/${id}/stop`, { method: 'POST', body: {}, fetcher: service });

  beforeAll(async () => {
    await steer({ answer: { status: 200, body: limited() } });
    service = signedInService();
  });
  afterAll(async () => {
    await call('/api/v1/runs/stop-all', { method: 'POST', body: { force: true }, fetcher: service });
    await steer({ answer: { status: 200, body: confirmed() } });
  });

  it('refuses a start beyond runningProfiles (429), then beyond dailyStarts until the UTC day ends (429, Retry-After)', async () => {
    const [a, b] = [await profile(), await profile()];
    expect((await start(a)).status).toBe(200);
    const second = await start(b);
    expect(second.status).toBe(429);
    expect(second.json.error).toMatchObject({ code: 'account.running_limit', details: { max: 1, running: 1 } });
    expect((await stop(a)).status).toBe(200);
    expect((await start(b)).status).toBe(200);
    expect((await stop(b)).status).toBe(200);

    const third = await start(a);
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({
      code: 'account.daily_starts_limit',
      details: { max: 2, started_today: 2 },
    });
    const retryAfter = Number(third.headers.get('retry-after'));
    const untilMidnight = Math.ceil((Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000);
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(retryAfter - untilMidnight)).toBeLessThanOrEqual(2);
    expect(third.json.error.details.retry_after_s).toBe(retryAfter);

    const usage = (await call('/api/v1/account/status', { fetcher: service })).json.account.usage;
    const today = new Date().toISOString().slice(0, 10);
    expect(usage).toMatchObject({ startsToday: 2, day: today, resetAt: Date.parse(`${today}T00:00:00Z`) + 86_400_000 });
  });
});
