import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** Cloudflare Access as the team tests see it: a JWKS on 127.0.0.1, and the keys to sign assertions with. */
export interface AccessFixture {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** The private key whose public half the JWKS serves. */
  signing: JWK;
  /** An RS256 key the JWKS does not hold: its assertions must fail. */
  stranger: JWK;
}

/**
 * Starts the JWKS server for the run (the process of vitest.config.ts lives as long as the run; the
 * server does not keep it alive). The keys are made fresh for every run.
 */
export async function startAccessFixture(): Promise<AccessFixture> {
  const make = async (kid: string) => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    return { publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' } };
  };
  const signing = await make('access-test-1');
  const stranger = await make('access-test-1');
  const body = JSON.stringify({ keys: [signing.publicJwk] });
  const server = createServer((request, response) => {
    response.writeHead(request.url === '/cdn-cgi/access/certs' ? 200 : 404, { 'content-type': 'application/json' });
    response.end(request.url === '/cdn-cgi/access/certs' ? body : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    jwksUrl: `${origin}/cdn-cgi/access/certs`,
    issuer: 'https://lpa-test.cloudflareaccess.com',
    audience: 'lpa-test-aud',
    signing: signing.privateJwk,
    stranger: stranger.privateJwk,
  };
}
