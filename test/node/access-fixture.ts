import type { JWK } from 'jose';
import { newAccessKey, serveJwks } from '../../scripts/local-access.mjs';

/** Cloudflare Access as the team tests see it: a JWKS on 127.0.0.1, and the keys to sign assertions with. */
export interface AccessFixture {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** The private key whose public half the JWKS serves. */
  signing: JWK;
  /** An RS256 key the JWKS does not hold, under the same kid: its assertions must fail. */
  stranger: JWK;
}

/**
 * Starts the JWKS server for the run with the stand-in `npm run start:team` uses (scripts/local-access.mjs);
 * the keys are made fresh for every run.
 */
export async function startAccessFixture(): Promise<AccessFixture> {
  const signing = await newAccessKey('access-test-1');
  return {
    jwksUrl: await serveJwks([signing]),
    issuer: 'https://lpa-test.cloudflareaccess.com',
    audience: 'lpa-test-aud',
    signing,
    stranger: await newAccessKey('access-test-1'),
  };
}
