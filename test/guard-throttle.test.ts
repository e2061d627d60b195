import { describe, expect, it } from 'vitest';
import { AuthThrottle } from '../src/pipeline/throttle';
import { call, freshIp } from './support/api';

const SPOOFS = { 'x-forwarded-for': '203.0.113.9', 'cf-connecting-ip': '203.0.113.9', 'x-real-ip': '203.0.113.9' };

async function failTimes(ip: string, n: number, headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call('/api/v1/version', { token: `lpa_wrong${i}`, clientIp: ip, headers })).status);
  return statuses;
}

describe('failed-authentication throttle', () => {
  it('blocks an address after twenty failures, even for a good token, with Retry-After', async () => {
    const ip = freshIp();
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
    const ip = freshIp();
    await failTimes(ip, 19);
    expect((await call('/api/v1/version', { clientIp: ip })).status).toBe(200);
  });

  it('uses the connection peer, never a header the client sent', async () => {
    const attacker = freshIp();
    const bystander = freshIp();
    // Failures sent with spoofed headers still count against the true peer...
    await failTimes(attacker, 20, SPOOFS);
    expect((await call('/api/v1/version', { clientIp: attacker, headers: { 'x-forwarded-for': bystander } })).status).toBe(429);
    // ...and do not block the address they name, nor another peer.
    expect((await call('/api/v1/version', { clientIp: bystander })).status).toBe(200);
    expect((await call('/api/v1/version', { clientIp: '127.0.0.1', headers: SPOOFS })).status).toBe(200);
  });
});

describe('AuthThrottle', () => {
  it('counts failures in a sliding minute and lifts the block after one minute', () => {
    const throttle = new AuthThrottle();
    for (let i = 0; i < 19; i++) throttle.recordFailure('a', i * 1000);
    // The first failure has left the window by t = 60.5 s, so this is the 19th in the window.
    throttle.recordFailure('a', 60_500);
    expect(() => throttle.assertNotBlocked('a', 60_600)).not.toThrow();
    throttle.recordFailure('a', 60_700);
    expect(() => throttle.assertNotBlocked('a', 60_800)).toThrow(expect.objectContaining({ code: 'auth.throttled' }));
    expect(() => throttle.assertNotBlocked('a', 60_700 + 59_999)).toThrow();
    expect(() => throttle.assertNotBlocked('a', 60_700 + 60_000)).not.toThrow();
  });

  it('keeps bounded memory under a flood of addresses', () => {
    const throttle = new AuthThrottle();
    for (let i = 0; i < 50_000; i++) throttle.recordFailure(`ip${i}`, 0);
    expect((throttle as unknown as { clients: Map<string, unknown> }).clients.size).toBe(10_000);
  });
});
