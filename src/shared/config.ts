import { parseFingerprint, type AdminTokenFingerprint } from './admin-token';

/** The port LPA serves on when LPA_PORT is not set. */
export const DEFAULT_PORT = 8719;

/** The service's configuration, as the pipeline and handlers use it. */
export interface Config {
  port: number;
  /** The Host header values the service answers (src/pipeline/host-guard.ts): the loopback names with its port, locally. */
  allowedHosts: ReadonlySet<string>;
  dataRoot: string;
  allowedOrigins: ReadonlySet<string>;
  /** SHA-256 (hex) of the bootstrap admin token; the token itself never reaches the worker. */
  adminTokenSha256: string;
  /** The admin token's length (0: unknown), so that logs can find it inside other text by its hash. */
  adminTokenLength: number;
  /** Which windows of that length are worth hashing (src/shared/admin-token.ts); null: every one. */
  adminTokenFingerprint: AdminTokenFingerprint | null;
  appVersion: string;
  /** The membership server that confirms the signed-in account; null in local mode. */
  accountUrl: string | null;
  /** The team this machine joined (`https://…/teams/<team_id>`): its `home: 'team'` routes are the team's; null when solo. */
  teamUrl: string | null;
  /** This machine's id in the team's chain (`<data root>/machine-id`); null when solo. */
  machineId: string | null;
  /** A team service's lease length for a profile's run (`LPA_RUN_LEASE_MS`, docs/teams.md#settings); unset elsewhere. */
  runLeaseMs?: number;
  /** A team service's limit on a profile's browser data (`LPA_BUNDLE_MAX_BYTES`, docs/teams.md#what-travels); unset elsewhere. */
  bundleMaxBytes?: number;
  /** What the team shows as where this machine's runs are (LPA_MACHINE_LABEL or the host name); null when solo. */
  machineLabel?: string | null;
}

/** The service's settings as the runtime hands them over: text, by their environment names. */
export interface ConfigVars {
  LPA_PORT: string;
  LPA_DATA_ROOT: string;
  LPA_ALLOWED_ORIGINS?: string;
  LPA_ADMIN_TOKEN_SHA256: string;
  LPA_ADMIN_TOKEN_LENGTH?: string;
  /** `base:value` (src/shared/admin-token.ts): lets the redaction of logged text skip most windows. */
  LPA_ADMIN_TOKEN_FINGERPRINT?: string;
  LPA_VERSION: string;
  /** The membership server; unset or empty means local mode. */
  LPA_ACCOUNT_URL?: string;
  /** The team this machine joined; unset or empty: solo. */
  LPA_TEAM_URL?: string;
  /** Set by the launcher with LPA_TEAM_URL, from `<data root>/machine-id`. */
  LPA_MACHINE_ID?: string;
  /** Set by the launcher with LPA_TEAM_URL: LPA_MACHINE_LABEL, or the host name. */
  LPA_MACHINE_LABEL?: string;
}

/** The origins of the web console the service serves itself (src/console): its pages call the API from there. */
export function consoleOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** The names a local service answers to: loopback only, with its port (a DNS-rebinding page sends its own name). */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

export function configFrom(vars: ConfigVars): Config {
  return {
    port: Number(vars.LPA_PORT),
    allowedHosts: new Set(loopbackHosts(Number(vars.LPA_PORT))),
    dataRoot: vars.LPA_DATA_ROOT,
    allowedOrigins: new Set([
      ...consoleOrigins(Number(vars.LPA_PORT)),
      ...(vars.LPA_ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ]),
    adminTokenSha256: vars.LPA_ADMIN_TOKEN_SHA256.toLowerCase(),
    adminTokenLength: Number(vars.LPA_ADMIN_TOKEN_LENGTH) || 0,
    adminTokenFingerprint: parseFingerprint(vars.LPA_ADMIN_TOKEN_FINGERPRINT),
    appVersion: vars.LPA_VERSION,
    accountUrl: vars.LPA_ACCOUNT_URL || null,
    teamUrl: vars.LPA_TEAM_URL || null,
    machineId: (vars.LPA_TEAM_URL && vars.LPA_MACHINE_ID) || null,
    machineLabel: (vars.LPA_TEAM_URL && vars.LPA_MACHINE_LABEL) || null,
  };
}
