import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/shared/errors/api-error';
import { accessVerifier, CLOCK_TOLERANCE_S } from '../../src/teams/access-jwt';

/**
 * Cloudflare Access assertions checked against a key set served on 127.0.0.1, as Access serves its
 * own at `<team>.cloudflareaccess.com/cdn-cgi/access/certs`. The set holds the RS256 key Access signs
 * with and an ES256 key, so that an ES256 assertion fails on its algorithm, not on a missing key.
 */
const AUD = 'aud-tag-of-the-lpa-application';
const ISSUER = 'https://acme.cloudflareaccess.com';
const NOW_S = () => Math.floor(Date.now() / 1000);

let server: Server;
let jwksUrl: string;
let jwksAnswer: { status: number; body: string };
let jwksFetches = 0;
let access: CryptoKey;
let other: CryptoKey;
let elliptic: CryptoKey;

const listen = (handler: Parameters<typeof createServer>[1]) =>
  new Promise<Server>((resolve) => {
    const started = createServer(handler).listen(0, '127.0.0.1', () => resolve(started));
  });
const urlOf = (listening: Server) =>
  `http://127.0.0.1:${(listening.address() as AddressInfo).port}/cdn-cgi/access/certs`;

beforeAll(async () => {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  ({ privateKey: access } = rsa);
  ({ privateKey: elliptic } = ec);
  ({ privateKey: other } = await generateKeyPair('RS256'));
  const keys = [
    { ...(await exportJWK(rsa.publicKey)), kid: 'access-rsa', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'access-ec', alg: 'ES256', use: 'sig' },
  ];
  jwksAnswer = { status: 200, body: JSON.stringify({ keys }) };
  server = await listen((_, res) => {
    jwksFetches += 1;
    res.writeHead(jwksAnswer.status, { 'content-type': 'application/json' }).end(jwksAnswer.body);
  });
  jwksUrl = urlOf(server);
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

afterEach(() => vi.restoreAllMocks());

const verifier = (url = jwksUrl) => accessVerifier({ jwksUrl: url, audience: AUD, issuer: ISSUER });

/** An assertion as Access signs one for a person, with `claims` and `header` changed. */
function assertion(
  claims: JWTPayload = {},
  { key = access as CryptoKey | Uint8Array, alg = 'RS256', kid = 'access-rsa' } = {},
): Promise<string> {
  const now = NOW_S();
  return new SignJWT({
    email: 'Ada@Example.COM',
    aud: [AUD],
    iss: ISSUER,
    iat: now,
    nbf: now,
    exp: now + 600,
    sub: 'user-id',
    ...claims,
  })
    .setProtectedHeader({ alg, kid })
    .sign(key);
}

/** The code and status a verification fails with, or what it answered. */
const outcome = (verify: (token: string) => Promise<{ member: string }>, token: string) =>
  verify(token).then(
    ({ member }) => `member ${member}`,
    (error: { status?: number; code?: string }) => `${error.status} ${error.code}`,
  );

const REFUSED = '401 auth.token_invalid';

describe('a Cloudflare Access assertion', () => {
  it('names the member by the email claim, lower-cased', async () => {
    expect(await outcome(verifier(), await assertion())).toBe('member ada@example.com');
  });

  it('names an Access service token by its common_name', async () => {
    const tokenId = '88BF3B6D86161464F6509F7219099E57.access';
    const expected = `member ${tokenId.toLowerCase()}`;
    expect(await outcome(verifier(), await assertion({ email: undefined, common_name: tokenId }))).toBe(expected);
    expect(await outcome(verifier(), await assertion({ email: '', common_name: tokenId }))).toBe(expected);
  });

  it('fetches the key set once for many verifications', async () => {
    const verify = verifier();
    const before = jwksFetches;
    for (let i = 0; i < 5; i++) expect(await outcome(verify, await assertion())).toBe('member ada@example.com');
    expect(jwksFetches - before).toBe(1);
  });

  it('tolerates a few seconds of clock drift, and no more', async () => {
    const verify = verifier();
    const now = NOW_S();
    expect(await outcome(verify, await assertion({ exp: now - (CLOCK_TOLERANCE_S - 2) }))).toBe(
      'member ada@example.com',
    );
    expect(await outcome(verify, await assertion({ nbf: now + (CLOCK_TOLERANCE_S - 2) }))).toBe(
      'member ada@example.com',
    );
    expect(CLOCK_TOLERANCE_S).toBeLessThanOrEqual(5);
  });

  it.each<[string, () => Promise<string>]>([
    [
      'alg none',
      async () => new UnsecuredJWT({ email: 'ada@example.com', aud: AUD, iss: ISSUER, exp: NOW_S() + 600 }).encode(),
    ],
    [
      'HS256',
      () => assertion({}, { key: new TextEncoder().encode('a shared secret of thirty-two bytes!'), alg: 'HS256' }),
    ],
    ['ES256, its key in the set', () => assertion({}, { key: elliptic, alg: 'ES256', kid: 'access-ec' })],
    ['another RS256 key, its kid unknown', () => assertion({}, { key: other, kid: 'not-in-the-set' })],
    ['another RS256 key under the kid of the right one', () => assertion({}, { key: other })],
    ['a wrong audience', () => assertion({ aud: 'another-application' })],
    ['no audience', () => assertion({ aud: undefined })],
    ['a wrong issuer', () => assertion({ iss: 'https://evil.cloudflareaccess.com' })],
    ['no issuer', () => assertion({ iss: undefined })],
    ['an expired one', () => assertion({ exp: NOW_S() - CLOCK_TOLERANCE_S - 5 })],
    ['no expiry', () => assertion({ exp: undefined })],
    ['nbf in the future', () => assertion({ nbf: NOW_S() + CLOCK_TOLERANCE_S + 60 })],
    ['neither email nor common_name', () => assertion({ email: undefined })],
    ['an email that names no member', () => assertion({ email: 'not an email' })],
    ['a common_name that names no member', () => assertion({ email: undefined, common_name: 'x' })],
    ['an email with a KELVIN SIGN, which lower-cases to k', () => assertion({ email: '\u212Aelvin@acme.example' })],
    ['a common_name in the form of an email', () => assertion({ email: '', common_name: 'ada@example.com' })],
    ["an email in the form of a service token's name", () => assertion({ email: 'abcdef0123456789.access' })],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await assertion()).split('.');
        const payload = Buffer.from(
          JSON.stringify({ email: 'eve@example.com', aud: AUD, iss: ISSUER, exp: NOW_S() + 600 }),
        ).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    ],
    ['no JWT at all', async () => 'not-a-jwt'],
    ['an empty header', async () => ''],
    ["one too long to be Access's", async () => `${await assertion()}${'A'.repeat(20_000)}`],
  ])('is refused with %s', async (_, make) => {
    expect(await outcome(verifier(), await make())).toBe(REFUSED);
  });

  it('is refused when the key set cannot be fetched: nothing listening, an error, or no key set', async () => {
    const closed = await listen(() => {});
    const gone = urlOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect(await outcome(verifier(gone), await assertion())).toBe(REFUSED);
    const kept = jwksAnswer;
    try {
      for (const answer of [
        { status: 500, body: 'oops' },
        { status: 200, body: '{"keys": "none"}' },
        { status: 200, body: '<html>' },
      ]) {
        jwksAnswer = answer;
        expect(await outcome(verifier(), await assertion()), answer.body).toBe(REFUSED);
      }
    } finally {
      jwksAnswer = kept;
    }
  });

  it('never shows the assertion: not in the error, not in the console', async () => {
    const printed = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation(() => {}),
    );
    const token = await assertion({ aud: 'another-application' });
    const error = await verifier()(token).then(
      () => null,
      (caught: unknown) => caught,
    );
    if (!(error instanceof ApiError)) throw new Error(`not refused with an ApiError: ${String(error)}`);
    expect(JSON.stringify({ message: error.message, details: error.details, stack: error.stack })).not.toContain(
      token.split('.')[2],
    );
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
  });
});
