import type { Config } from '../shared/config';
import { DEFAULT_LEASE_MS } from '../../storage/leases/schema';
import { BUNDLE_MAX_PARTS, BUNDLE_PART_BYTES, DEFAULT_BUNDLE_MAX_BYTES } from '../shared/schemas/bundle';
import { sha256Hex } from '../shared/crypto';

/**
 * The team service's settings, as wrangler.toml's `[env.team.vars]` and its secrets hand them over
 * (docs/teams.md#settings); `npm run start:team` sets the same names for Wrangler's local mode.
 */
export interface TeamVars {
  LPA_VERSION: string;
  /** Comma-separated `host[:port]` names the service answers to; nothing else passes the Host guard. */
  LPA_TEAM_HOSTNAMES: string;
  LPA_ALLOWED_ORIGINS?: string;
  /** Cloudflare Access: the team's JWKS (`https://<team>.cloudflareaccess.com/cdn-cgi/access/certs`), the application's AUD tag, the issuer. */
  LPA_ACCESS_JWKS_URL?: string;
  LPA_ACCESS_AUD?: string;
  LPA_ACCESS_ISSUER?: string;
  /** Secret: the operator's bearer token for `POST /v1/teams`. */
  LPA_OPERATOR_TOKEN: string;
  /** How long a profile's run lease lasts, in ms (default 60,000; 3,000..3,600,000); its holder renews it every third. */
  LPA_RUN_LEASE_MS?: string;
  LPA_BUNDLE_MAX_BYTES?: string;
  /** Secret: the key-encryption key of every team's keys, 32 random bytes in base64. */
  LPA_KEY_WRAP_KEY: string;
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The pipeline's configuration for every team: the same for all of them, nothing of one team's. */
export function teamConfigFrom(vars: TeamVars): Config {
  return {
    // A team has no port, data root, admin token or membership server of its own: the routes that show them are not served under /teams.
    port: 0,
    dataRoot: '',
    allowedHosts: new Set(list(vars.LPA_TEAM_HOSTNAMES).map((host) => host.toLowerCase())),
    allowedOrigins: new Set(list(vars.LPA_ALLOWED_ORIGINS)),
    adminTokenSha256: '',
    adminTokenLength: 0,
    adminTokenFingerprint: null,
    appVersion: vars.LPA_VERSION,
    accountUrl: null,
    teamUrl: null,
    machineId: null,
    runLeaseMs: leaseMsFrom(vars.LPA_RUN_LEASE_MS),
    bundleMaxBytes: bundleMaxFrom(vars.LPA_BUNDLE_MAX_BYTES),
  };
}

/** The lease length the service was given; a value out of bounds is a deploy's mistake, so the default stands rather than a lease no machine can keep. */
function leaseMsFrom(text: string | undefined): number {
  const ms = Number(text);
  return Number.isInteger(ms) && ms >= 3_000 && ms <= 3_600_000 ? ms : DEFAULT_LEASE_MS;
}

/** The bundle limit the service was given (1 MiB..1 GiB); out of bounds, the default stands, as for the lease. */
function bundleMaxFrom(text: string | undefined): number {
  const bytes = Number(text);
  return Number.isInteger(bytes) && bytes >= 1024 * 1024 && bytes <= BUNDLE_MAX_PARTS * BUNDLE_PART_BYTES
    ? bytes
    : DEFAULT_BUNDLE_MAX_BYTES;
}

/** The Access settings, or null where the service has none (then only team tokens authenticate). */
export function accessSettings(vars: TeamVars): { jwksUrl: string; audience: string; issuer: string } | null {
  const { LPA_ACCESS_JWKS_URL: jwksUrl, LPA_ACCESS_AUD: audience, LPA_ACCESS_ISSUER: issuer } = vars;
  return jwksUrl && audience && issuer ? { jwksUrl, audience, issuer } : null;
}

/** The operator token's SHA-256, or null when none is set (then no team can be created). */
export function operatorTokenSha256(vars: TeamVars): string | null {
  return vars.LPA_OPERATOR_TOKEN ? sha256Hex(vars.LPA_OPERATOR_TOKEN) : null;
}
