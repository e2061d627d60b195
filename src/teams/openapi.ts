import { z } from 'zod';
import { TEAM_FRONT_CONTRACTS } from '../contracts';
import type { Contract } from '../contracts/define';
import {
  ERRORS_DESCRIPTION,
  serviceDocument,
  teamHeadHeader,
  type JsonSchema,
  type Mounted,
} from '../openapi/document';
import { TeamId } from '../shared/schemas/team';
import { TEAMS_PATH } from '../shared/team-path';
import { ACCESS_ASSERTION_HEADER } from './identity';
import { ROLES } from './roles';
import { TEAM_ROUTES } from './routes';

/** `/teams/{team_id}`, before every team route's declared path (`/api/v1/…`), as ./team-front.ts splits it. */
const TEAM_PREFIX = {
  path: `${TEAMS_PATH}/:team_id`,
  params: z.object({
    team_id: TeamId.meta({
      description:
        'The team id: 3 to 63 lower-case letters, digits and hyphens. An id not of this form answers 404 `team.not_found`; one of this form ' +
        'that no operator created answers as a team that knows none of its callers (401 `auth.token_missing` or `auth.token_invalid`, ' +
        '403 `auth.not_member`, 429 `auth.throttled`), so that a caller without valid credentials cannot tell which teams exist.',
    }),
  }),
};

/** Said of the team chain's head on a team's answers: every answer the team's object gave a request it let in (src/object/store-object.ts). */
const TEAM_HEAD = teamHeadHeader(
  "The team chain's head after the request, `<seq>,<hash>`, on every answer the team's Durable Object gave a request it let in " +
    "(authenticated as one of the team's, a member or a team token, and holding the route's scopes), errors after that included: " +
    'what a joined machine keeps as a witness of the team history. Absent on every refusal (401, 403, 429 `auth.throttled`), ' +
    'so that a refusal says nothing of the team, and on the answers of the front (`request.host_forbidden`, `team.not_found`).',
);

const MEMBER_SCOPES = ROLES.member.scopes.map((scope) => `\`${scope}\``).join(', ');

/** How the team service authenticates (./identity.ts, ./team-front.ts), scheme by scheme. */
const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  teamToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A team token (`POST /teams/{team_id}/api/v1/tokens`), valid in its own team only; its scopes and admin flag are the token's. " +
      'A bearer token alone authenticates: when one is sent, `Cf-Access-Jwt-Assertion` is not read. The operator token is not a team token.',
  },
  accessAssertion: {
    type: 'apiKey',
    in: 'header',
    name: ACCESS_ASSERTION_HEADER,
    description:
      'The JWT Cloudflare Access adds to a request it lets through, read when no bearer token is sent and only where the service has ' +
      '`LPA_ACCESS_JWKS_URL`, `LPA_ACCESS_AUD` and `LPA_ACCESS_ISSUER`: RS256 only, signed by a key of that JWKS, `exp` required, ' +
      '`nbf`, `aud` and `iss` checked with 5 s of clock tolerance; anything else is `auth.token_invalid`. Its `email` (a person, an address) or ' +
      '`common_name` (an Access service token, `<client id>.access`), in ASCII and compared without regard to ASCII case, ' +
      "must name a member of the team, else 403 `auth.not_member`. The member's role decides: " +
      `an owner or admin is an admin session, a member holds ${MEMBER_SCOPES}.`,
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The operator token, the service's secret `LPA_OPERATOR_TOKEN`: it creates teams (`POST /v1/teams`) as an admin session, and opens no team's data.",
  },
};

/**
 * A route of the front (./team-front.ts): at its own path, with the operator token, whose principal is
 * always an admin session (so never `auth.admin_required`).
 */
const frontMount = (route: Contract): Mounted => ({
  route,
  schemes: ['operatorToken'],
  errors: [],
  never: ['auth.admin_required'],
  headers: {},
});

/**
 * A team's route (./routes.ts): under `/teams/{team_id}`, with a team token or a member's Access
 * assertion; the front answers `team.not_found` for an id not of a team's form, and every other
 * answer is the team object's, with its chain head when it let the request in.
 */
const teamMount = (route: Contract): Mounted => ({
  route,
  prefix: TEAM_PREFIX,
  schemes: ['teamToken', 'accessAssertion'],
  errors: route.access === 'public' ? ['team.not_found'] : ['team.not_found', 'auth.not_member'],
  headers: { 'X-LPA-Team-Head': TEAM_HEAD },
});

/**
 * The team service's OpenAPI 3.1 document (docs/openapi.md#the-team-services-document), served at
 * `GET /v1/openapi.json` (./team-front.ts): the front's own routes, then every team's, from the same
 * contracts, schemas and error catalogue as the local service's document.
 */
export function teamOpenapiDocument(): JsonSchema {
  return serviceDocument({
    title: "LPA team service: every team's profile, automation and audit API",
    description:
      'The team service of LPA (docs/teams.md): `GET /status` and this document need no token; the operator creates teams ' +
      '(`POST /v1/teams`); every team serves its API under `/teams/{team_id}`, with the routes, schemas, scopes and operationIds ' +
      "of the local service's `/api/v1/…`. A team's route takes a team token, or else the Cloudflare Access assertion of a member " +
      '(its `security` lists both: either one); the scopes it lists are all required, and an admin session satisfies every ' +
      'scope check. Cloudflare Access, in front of the service, may itself ask for its login or service token first, as its ' +
      'policies say. A request that a machine in the team forwards with its team token may name the machine ' +
      '(`X-LPA-Machine`, `X-LPA-Local-Token`, `X-LPA-Request-Id`): labels of the audit entry, granting nothing. ' +
      ERRORS_DESCRIPTION,
    // Relative: the origin this document was served from (Cloudflare's HTTPS in production, or a local
    // `npm run start:team`), the same document for every host name the service answers to.
    server: {
      url: '/',
      description:
        'The team service this document was served from: production on Cloudflare, or local (npm run start:team)',
      internal: false,
    },
    securitySchemes: SECURITY_SCHEMES,
    routes: [...TEAM_FRONT_CONTRACTS.map(frontMount), ...TEAM_ROUTES.map(teamMount)],
  });
}
