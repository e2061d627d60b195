import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { MemberEmail } from '../../storage/members/schema';
import { ApiError } from '../shared/errors/api-error';

/** Where Cloudflare Access publishes its signing keys, and what its assertions for this application carry. */
export interface AccessSettings {
  /** `https://<team>.cloudflareaccess.com/cdn-cgi/access/certs` (LPA_ACCESS_JWKS_URL). */
  jwksUrl: string;
  /** The application's audience tag (LPA_ACCESS_AUD). */
  audience: string;
  /** `https://<team>.cloudflareaccess.com` (LPA_ACCESS_ISSUER). */
  issuer: string;
}

/** Who an assertion names: the member's email, or the client id of an Access service token. */
export interface AccessIdentity {
  member: string;
}

/**
 * How far the clocks of Access and of the service may disagree when `exp` and `nbf` are checked:
 * a few seconds of drift, not enough to stretch the life of a stolen assertion.
 */
export const CLOCK_TOLERANCE_S = 5;

/** Larger than any assertion Access signs; a longer header is refused before it is parsed. */
const MAX_ASSERTION_LENGTH = 16_384;

/**
 * A verifier of the `Cf-Access-Jwt-Assertion` header. Access signs with RS256 only, so no other
 * algorithm is accepted (`none`, HS256 with the public key as secret, ES256 all fail), and the
 * signature, `aud`, `iss`, `exp` (required) and `nbf` are checked. The key set is fetched once and
 * kept by jose (refetched after 10 minutes, or for an unknown `kid` at most every 30 s), for every
 * team alike: Access signs for the whole service, not for a team. Any failure, the key set
 * unreachable included, is `auth.token_invalid`; the assertion itself is never logged nor echoed.
 */
export type AccessVerifier = (assertion: string) => Promise<AccessIdentity>;

export function accessVerifier({ jwksUrl, audience, issuer }: AccessSettings): AccessVerifier {
  const keys = createRemoteJWKSet(new URL(jwksUrl));
  return async (assertion) => {
    if (assertion.length > MAX_ASSERTION_LENGTH) throw new ApiError('auth.token_invalid');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(assertion, keys, {
        algorithms: ['RS256'],
        audience,
        issuer,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch {
      throw new ApiError('auth.token_invalid');
    }
    // A person by the `email` claim; else a service token (whose `email` is absent or empty) by its `common_name`.
    const { email, common_name: commonName } = payload;
    const person = typeof email === 'string' && email !== '';
    const member = MemberEmail.safeParse(person ? email : commonName);
    // Each in its own form: an email names a person (it has an `@`), a common_name only a service
    // token (`<client id>.access`), so that neither signs in as the other.
    if (!member.success || member.data.includes('@') !== person) throw new ApiError('auth.token_invalid');
    return { member: member.data };
  };
}
