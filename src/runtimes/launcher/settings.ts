import { hostname } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_PORT, type ConfigVars } from '../../shared/config';
import { ADMIN_TOKEN_SHAPE, adminTokenFingerprint, fingerprintText } from '../../shared/admin-token';
import { environmentOf, type ProcessVars } from '../../shared/environment';
import { DEFAULT_BROWSER_NICE } from '../../host/node/browsers/browser-process';
import type { TeamLink } from '../../host/node/team-link';
import { LaunchError } from './launch-error';
import { teamLink } from './team-settings';

export interface LaunchSettings {
  port: number;
  dataRoot: string;
  allowedOrigins: string;
  accountUrl: string;
  /** SHA-256 of the admin token: the worker never sees the token itself. */
  adminTokenSha256: string;
  /** `base:value` of the admin token's fingerprint, drawn anew at each start (src/shared/admin-token.ts). */
  adminTokenFingerprint: string;
  /** Where the admin token can be read, or null when it came from LPA_ADMIN_TOKEN. */
  adminTokenFile: string | null;
  adminToken: string;
  /** The team this machine joined (./team-settings.ts), or null: solo. */
  team: TeamLink | null;
  /** `LPA_BROWSER`: the browser runs start, or undefined to look for one (src/host/node/browsers/find-browser.ts). */
  browser: string | undefined;
  /** `LPA_BROWSER_NICE`: the nice of each browser's session (src/host/node/browsers/browser-process.ts). */
  browserNice: number;
  /** How the team names this machine where its profiles run: `LPA_MACHINE_LABEL`, or the host name. */
  machineLabel: string;
}

export { LaunchError };

/** The label as the team takes it (storage/leases/schema.ts): printable ASCII, at most 100 characters. */
function machineLabel(label: string): string {
  if (!/^[\x20-\x7e]{1,100}$/.test(label))
    throw new LaunchError(`LPA_MACHINE_LABEL must be 1..100 printable ASCII characters, not "${label}"`);
  return label;
}

function browserNice(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_BROWSER_NICE;
  if (!/^[0-9]{1,2}$/.test(raw) || Number(raw) > 19)
    throw new LaunchError(`LPA_BROWSER_NICE must be a nice value 0..19, not "${raw}"`);
  return Number(raw);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^[0-9]+$/.test(raw) || port < 1 || port > 65535)
    throw new LaunchError(`LPA_PORT must be a port number 1..65535, not "${raw}"`);
  return port;
}

/**
 * The admin token: LPA_ADMIN_TOKEN if set, else the token file of the data root, made on first
 * start with mode 0600. Only its path is ever printed.
 */
function adminToken(dataRoot: string, fromEnv: string | undefined): { token: string; file: string | null } {
  const shaped = (token: string, from: string) => {
    if (!ADMIN_TOKEN_SHAPE.test(token))
      throw new LaunchError(`${from} must be 16..512 characters of A-Z a-z 0-9 - . _ ~ + /`);
    return token;
  };
  if (fromEnv) return { token: shaped(fromEnv, 'LPA_ADMIN_TOKEN'), file: null };
  const file = join(dataRoot, 'admin-token');
  if (!existsSync(file))
    writeFileSync(file, `lpa_${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  return { token: shaped(readFileSync(file, 'utf8').trim(), `the admin token in ${file}`), file };
}

export function launchSettings(vars: ProcessVars): LaunchSettings {
  const env = environmentOf(vars);
  const dataRoot = resolve(env.LPA_DATA_ROOT || './data');
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  const admin = adminToken(dataRoot, env.LPA_ADMIN_TOKEN);
  for (const origin of (env.LPA_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new LaunchError(`LPA_ALLOWED_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`);
  }
  return {
    port: parsePort(env.LPA_PORT),
    dataRoot,
    allowedOrigins: env.LPA_ALLOWED_ORIGINS ?? '',
    accountUrl: env.LPA_ACCOUNT_URL ?? '',
    adminTokenSha256: createHash('sha256').update(admin.token).digest('hex'),
    adminTokenFingerprint: fingerprintText(adminTokenFingerprint(admin.token)),
    adminTokenFile: admin.file,
    adminToken: admin.token,
    team: teamLink(env, dataRoot),
    browser: env.LPA_BROWSER,
    browserNice: browserNice(env.LPA_BROWSER_NICE),
    machineLabel: machineLabel(env.LPA_MACHINE_LABEL || hostname()),
  };
}

/** The settings as the service takes them: the workerd config's bindings, or handed to the app in process. */
export function configVars(settings: LaunchSettings, version: string): ConfigVars {
  return {
    LPA_PORT: String(settings.port),
    LPA_DATA_ROOT: settings.dataRoot,
    LPA_ALLOWED_ORIGINS: settings.allowedOrigins,
    LPA_ADMIN_TOKEN_SHA256: settings.adminTokenSha256,
    LPA_ADMIN_TOKEN_LENGTH: String(settings.adminToken.length),
    LPA_ADMIN_TOKEN_FINGERPRINT: settings.adminTokenFingerprint,
    LPA_VERSION: version,
    LPA_ACCOUNT_URL: settings.accountUrl,
    LPA_TEAM_URL: settings.team?.url ?? '',
    LPA_MACHINE_ID: settings.team?.machineId ?? '',
    // What people of the team read as where a profile runs (docs/teams.md#runs-across-machines).
    LPA_MACHINE_LABEL: settings.team ? settings.machineLabel : '',
  };
}
