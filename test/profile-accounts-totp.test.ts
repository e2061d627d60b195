import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { totpAt, totpProblem } from '../src/shared/totp';
import { call } from './support/api';
import { createAccount, createProfile } from './support/profiles';

// RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to 20, 32 and 64 bytes.
const seed = (bytes: number) => Secret.fromUTF8('1234567890'.repeat(7).slice(0, bytes)).base32;
const SEEDS = { SHA1: seed(20), SHA256: seed(32), SHA512: seed(64) };
const VECTORS: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const uri = (algorithm: keyof typeof SEEDS, extra = '') =>
  `otpauth://totp/LPA:test?secret=${SEEDS[algorithm]}&algorithm=${algorithm}&digits=8${extra}`;

describe('TOTP generation (RFC 6238 appendix B)', () => {
  it.each(VECTORS)('at %i s gives the RFC codes for SHA-1, SHA-256 and SHA-512', (seconds, sha1, sha256, sha512) => {
    const remaining_s = 30 - (seconds % 30);
    expect(totpAt(uri('SHA1'), seconds * 1000)).toEqual({ code: sha1, remaining_s });
    expect(totpAt(uri('SHA256'), seconds * 1000)).toEqual({ code: sha256, remaining_s });
    expect(totpAt(uri('SHA512'), seconds * 1000)).toEqual({ code: sha512, remaining_s });
    // A bare base32 key means SHA-1, 30 s, 6 digits: the last six digits of the 8-digit code.
    expect(totpAt(SEEDS.SHA1, seconds * 1000)).toEqual({ code: sha1.slice(2), remaining_s });
  });

  it('tolerates spaces and lower case in a base32 key', () => {
    const spaced = SEEDS.SHA1.toLowerCase().replace(/(.{4})/g, '$1 ');
    expect(totpAt(spaced, 59_000)).toEqual(totpAt(SEEDS.SHA1, 59_000));
    expect(totpProblem(spaced)).toBeNull();
  });

  it('honours the period of a URI, counting remaining seconds up', () => {
    expect(totpAt(uri('SHA1', '&period=60'), 59_000)).toEqual({ code: totpAt(uri('SHA1'), 0).code, remaining_s: 1 });
    expect(totpAt(uri('SHA1'), 59_999).remaining_s).toBe(1);
    expect(totpAt(uri('SHA1'), 60_000).remaining_s).toBe(30);
    expect(totpAt(uri('SHA1'), 60_001).remaining_s).toBe(30);
  });

  it('says why a secret is unusable', () => {
    expect(totpProblem('')).toBe('The secret is empty');
    expect(totpProblem('abc1')).toMatch(/Invalid character/);
    expect(totpProblem(uri('SHA1', '&period=0'))).toMatch(/period/);
    expect(totpProblem('otpauth://totp/x?secret=ABCDEFGH&digits=11')).toBe('digits must be 6..10');
  });
});

describe('GET …/totp', () => {
  it('answers the code of the stored secret at the time of the request', async () => {
    const p = await createProfile({ name: 'totp-request' });
    const secret = 'jbsw y3dp ehpk 3pxp';
    const a = await createAccount(p.id, { platform_url: 'u', totp_secret: secret });
    const before = Date.now();
    const res = await call(`/api/v1/profiles/${p.id}/accounts/${a.id}/totp`);
    const after = Date.now();
    expect(res.status).toBe(200);
    // The code of the request's moment is the code of `before` or of `after` (a period may end between them).
    expect([totpAt(secret, before), totpAt(secret, after)]).toContainEqual(res.json);
  });

  it('honours the digits and period of an otpauth URI', async () => {
    const p = await createProfile({ name: 'totp-uri' });
    const secret = uri('SHA256', '&period=60');
    const a = await createAccount(p.id, { platform_url: 'u', totp_secret: secret });
    const before = Date.now();
    const res = await call(`/api/v1/profiles/${p.id}/accounts/${a.id}/totp`);
    const after = Date.now();
    expect(res.json.code).toMatch(/^\d{8}$/);
    expect([totpAt(secret, before), totpAt(secret, after)]).toContainEqual(res.json);
  });
});
