/**
 * A stand-in for Cloudflare Access on this machine, for `npm run start:team` when no LPA_ACCESS_*
 * settings are given (docs/teams.md#run-it-locally): an RS256 key kept in the data root
 * (`access-dev-key.json`, mode 0600), its JWKS served on 127.0.0.1, and assertions signed with it as
 * Access signs them (`email` claim, the issuer and audience below). The team service verifies them
 * with the very code that verifies Access's own (src/teams/access-jwt.ts); nothing of it is deployed.
 *
 *   node scripts/local-access.mjs assertion <email> [data root]   prints an assertion for <email>
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

export const LOCAL_ACCESS_ISSUER = 'https://local-access.lpa.invalid';
export const LOCAL_ACCESS_AUDIENCE = 'lpa-team-local';
const KEY_FILE = 'access-dev-key.json';

/** A new RS256 private key as a JWK, the kind Access signs with. */
export async function newAccessKey(kid) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
}

/** The public half of a private JWK, as a JWKS lists it. */
const publicHalf = ({ d, p, q, dp, dq, qi, ...publicJwk }) => ({ ...publicJwk, use: 'sig' });

/**
 * Serves the public halves of `privateJwks` as Access's JWKS (`/cdn-cgi/access/certs`) on 127.0.0.1,
 * a free port; the server does not keep the process alive. Its URL.
 */
export async function serveJwks(privateJwks) {
  const body = JSON.stringify({ keys: privateJwks.map(publicHalf) });
  const server = createServer((request, response) => {
    const found = request.url === '/cdn-cgi/access/certs';
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    response.end(found ? body : '{}');
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  server.unref();
  return `http://127.0.0.1:${server.address().port}/cdn-cgi/access/certs`;
}

/** The data root's key pair, made on first use. */
async function localKey(dataRoot) {
  const path = join(dataRoot, KEY_FILE);
  if (!existsSync(path))
    writeFileSync(path, JSON.stringify(await newAccessKey('local-access')), { mode: 0o600, flag: 'wx' });
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** An assertion for `email`, valid for `seconds`, as Access would sign it. */
export async function localAssertion(dataRoot, email, seconds = 3600) {
  const jwk = await localKey(dataRoot);
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
    .setIssuer(LOCAL_ACCESS_ISSUER)
    .setAudience(LOCAL_ACCESS_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${seconds}s`)
    .sign(await importJWK(jwk, 'RS256'));
}

/** Serves the data root's JWKS on 127.0.0.1 (a free port) while the process runs; the settings for the Worker. */
export async function serveLocalAccess(dataRoot) {
  return {
    LPA_ACCESS_JWKS_URL: await serveJwks([await localKey(dataRoot)]),
    LPA_ACCESS_AUD: LOCAL_ACCESS_AUDIENCE,
    LPA_ACCESS_ISSUER: LOCAL_ACCESS_ISSUER,
  };
}

if (
  process.argv[1] &&
  resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname) &&
  process.argv[2] === 'assertion'
) {
  const [email, dataRoot = process.env.LPA_TEAM_DATA_ROOT || './data-team'] = process.argv.slice(3);
  if (!email) {
    console.error('usage: node scripts/local-access.mjs assertion <email> [data root]');
    process.exit(2);
  }
  console.log(await localAssertion(resolve(dataRoot), email));
}
