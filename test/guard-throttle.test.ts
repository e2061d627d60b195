import { describe, expect, it } from 'vitest';
import { normalizeAddress } from '../src/pipeline/client-address';
import { AuthThrottle } from '../src/pipeline/throttle';
import { call, freshIp } from './support/api';

const SPOOFS = { 'x-forwarded-for': '203.0.113.9', 'cf-connecting-ip': '203.0.113.9', 'x-real-ip': '203.0.113.9' };

async function failTimes(ip: string, n: number, headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++)
    statuses.push((await call('/api/v1/version', { token: `lpa_wrong${i}`, clientIp: ip, headers })).status);
  return statuses;
}

/** An address of its own that has authenticated with a valid token, as the user's clients have. */
async function knownIp(): Promise<string> {
  const ip = freshIp();
  expect((await call('/api/v1/version', { clientIp: ip })).status).toBe(200);
  return ip;
}

// Each test sends dozens of requests, the first of which opens the store: more than the default five seconds on a loaded machine.
describe('failed-authentication throttle', { timeout: 30_000 }, () => {
  it('blocks an address after twenty failures, even for a good token, with Retry-After', async () => {
    const ip = await knownIp();
    expect(await failTimes(ip, 20)).toEqual(Array(20).fill(401));
    const res = await call('/api/v1/version', { clientIp: ip });
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe('auth.throttled');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.json.error.details).toEqual({ retry_after_s: retryAfter });
  });

  it('does not count nineteen failures as a block', async () => {
    const ip = await knownIp();
    await failTimes(ip, 19);
    expect((await call('/api/v1/version', { clientIp: ip })).status).toBe(200);
  });

  it('does not count requests without a token: they guess nothing', async () => {
    const ip = await knownIp();
    for (let i = 0; i < 25; i++)
      expect((await call('/api/v1/version', { token: null, clientIp: ip })).status).toBe(401);
    expect((await call('/api/v1/version', { clientIp: ip })).status).toBe(200);
  });

  it('uses the connection peer, never a header the client sent', async () => {
    const attacker = await knownIp();
    const bystander = await knownIp();
    // Failures sent with spoofed headers still count against the true peer...
    await failTimes(attacker, 20, SPOOFS);
    expect(
      (await call('/api/v1/version', { clientIp: attacker, headers: { 'x-forwarded-for': bystander } })).status,
    ).toBe(429);
    // ...and do not block the address they name, nor another peer.
    expect((await call('/api/v1/version', { clientIp: bystander })).status).toBe(200);
    expect((await call('/api/v1/version', { clientIp: '127.0.0.1', headers: SPOOFS })).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 peer as the IPv4 address it is', async () => {
    const ip = await knownIp();
    await failTimes(`::ffff:${ip}`, 20);
    expect((await call('/api/v1/version', { clientIp: ip })).status).toBe(429);
  });

  // Last in this file: it spends the budget that all unknown addresses share, for a minute.
  it('gives rotating source addresses no more guesses than one address has, and locks no known client out', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await call('/api/v1/version', { token: `lpa_rotating${i}`, clientIp: freshIp() })).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual(Array(20).fill(429));
    // An address that never authenticated is blocked even with a valid token...
    const stranger = await call('/api/v1/version', { clientIp: freshIp() });
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    // ...the user's own client, which did, is not.
    expect((await call('/api/v1/version', { clientIp: '127.0.0.1' })).status).toBe(200);
  });
});

describe('AuthThrottle', () => {
  it('counts failures in a sliding minute and lifts the block after one minute', () => {
    const throttle = new AuthThrottle();
    throttle.recordSuccess('a', 0);
    for (let i = 0; i < 19; i++) throttle.recordFailure('a', i * 1000);
    // The first failure has left the window by t = 60.5 s, so this is the 19th in the window.
    throttle.recordFailure('a', 60_500);
    expect(() => throttle.assertNotBlocked('a', 60_600)).not.toThrow();
    throttle.recordFailure('a', 60_700);
    expect(() => throttle.assertNotBlocked('a', 60_800)).toThrow(expect.objectContaining({ code: 'auth.throttled' }));
    expect(() => throttle.assertNotBlocked('a', 60_700 + 59_999)).toThrow();
    expect(() => throttle.assertNotBlocked('a', 60_700 + 60_000)).not.toThrow();
  });

  it('shares one budget among addresses that have not authenticated, and lifts it after a minute', () => {
    const throttle = new AuthThrottle();
    throttle.recordSuccess('known', 0);
    for (let i = 0; i < 19; i++) throttle.recordFailure(`rotating${i}`, 1000);
    expect(() => throttle.assertNotBlocked('fresh', 1000)).not.toThrow();
    throttle.recordFailure('rotating19', 2000);
    expect(() => throttle.assertNotBlocked('fresh', 2000)).toThrow(
      expect.objectContaining({ code: 'auth.throttled', details: { retry_after_s: 60 } }),
    );
    expect(() => throttle.assertNotBlocked('rotating0', 61_999)).toThrow();
    expect(() => throttle.assertNotBlocked('known', 2000)).not.toThrow();
    expect(() => throttle.assertNotBlocked('fresh', 62_000)).not.toThrow();
  });

  it('forgets, after an hour, that an address authenticated', () => {
    const throttle = new AuthThrottle();
    throttle.recordSuccess('a', 0);
    for (let i = 0; i < 20; i++) throttle.recordFailure(`other${i}`, 3_600_000);
    expect(() => throttle.assertNotBlocked('a', 3_599_999)).not.toThrow();
    expect(() => throttle.assertNotBlocked('a', 3_600_000)).toThrow();
  });

  it('keeps bounded memory under a flood of addresses', () => {
    const throttle = new AuthThrottle();
    for (let i = 0; i < 50_000; i++) {
      throttle.recordFailure(`ip${i}`, 0);
      throttle.recordSuccess(`ok${i}`, 0);
    }
    const maps = throttle as unknown as { clients: Map<string, unknown>; known: { known: Map<string, unknown> } };
    expect(maps.clients.size).toBe(10_000);
    expect(maps.known.known.size).toBe(10_000);
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:127.0.0.2', '127.0.0.2'],
    ['0:0:0:0:0:ffff:127.0.0.3', '127.0.0.3'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['::1', '::1'],
    ['127.0.0.1', '127.0.0.1'],
    ['FE80::1', 'fe80::1'],
  ])('%s is %s', (address, expected) => {
    expect(normalizeAddress(address)).toBe(expected);
  });
});
