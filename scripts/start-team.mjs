/**
 * `npm run start:team`: the team service (docs/teams.md) in Wrangler's local mode. `wrangler dev
 * --env team` bundles src/runtimes/cloudflare/team-worker.ts exactly as `wrangler deploy --env team`
 * does and Miniflare simulates what Cloudflare provides: the teams' Durable Objects, the R2 bucket, the
 * rate limiter and the secrets, with everything kept under LPA_TEAM_DATA_ROOT, so that a restart
 * finds every team as it was.
 *
 * The two secrets come from the environment, or are made on first start into the data root (mode
 * 0600) and read from there afterwards: LPA_KEY_WRAP_KEY (`key-wrap.key`; losing it loses every
 * team's keys) and LPA_OPERATOR_TOKEN (`operator-token`; only its path is printed).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole, consoleIsStale } from './build-console.mjs';
import { LOCAL_ACCESS_ISSUER, serveLocalAccess } from './local-access.mjs';
import { writeSha256Wasm } from './sha256-wasm.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.LPA_TEAM_PORT || 8720);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`LPA_TEAM_PORT must be a port number (1-65535), not ${JSON.stringify(process.env.LPA_TEAM_PORT)}`);
  process.exit(2);
}
const dataRoot = resolve(process.env.LPA_TEAM_DATA_ROOT || './data-team');
mkdirSync(dataRoot, { recursive: true, mode: 0o700 });

/** A secret from the environment, or the one in the data root's file (made there first when absent). */
function secret(name, file, make) {
  if (process.env[name]) return { value: process.env[name], from: 'environment' };
  const path = join(dataRoot, file);
  if (!existsSync(path)) writeFileSync(path, `${make()}\n`, { mode: 0o600, flag: 'wx' });
  return { value: readFileSync(path, 'utf8').trim(), from: path };
}

const wrapKey = secret('LPA_KEY_WRAP_KEY', 'key-wrap.key', () => randomBytes(32).toString('base64'));
const operator = secret('LPA_OPERATOR_TOKEN', 'operator-token', () => `lpa_op_${randomBytes(32).toString('base64url')}`);
const hostnames = process.env.LPA_TEAM_HOSTNAMES || `127.0.0.1:${port},localhost:${port}`;
const accessNames = ['LPA_ACCESS_JWKS_URL', 'LPA_ACCESS_AUD', 'LPA_ACCESS_ISSUER'];
// Without Cloudflare Access in front, people sign in through a stand-in on this machine (./local-access.mjs).
const access = accessNames.every((name) => process.env[name])
  ? Object.fromEntries(accessNames.map((name) => [name, process.env[name]]))
  : await serveLocalAccess(dataRoot);

// What Wrangler hands the Worker beside wrangler.toml's vars: a file only this user can read, as the secrets are in it.
const vars = {
  LPA_KEY_WRAP_KEY: wrapKey.value,
  LPA_OPERATOR_TOKEN: operator.value,
  LPA_TEAM_HOSTNAMES: hostnames,
  ...access,
  ...(process.env.LPA_ALLOWED_ORIGINS ? { LPA_ALLOWED_ORIGINS: process.env.LPA_ALLOWED_ORIGINS } : {}),
};
const envFile = join(dataRoot, 'wrangler.env');
writeFileSync(envFile, Object.entries(vars).map(([name, value]) => `${name}=${JSON.stringify(value)}\n`).join(''), { mode: 0o600 });
chmodSync(envFile, 0o600);

// The worker imports these generated modules, as `npm start`'s does.
writeSha256Wasm();
if (consoleIsStale()) await buildConsole();

console.log(JSON.stringify({
  service: 'lpa-team',
  url: `http://127.0.0.1:${port}`,
  data_root: dataRoot,
  operator_token: operator.from === 'environment' ? 'from LPA_OPERATOR_TOKEN' : `in ${operator.from}`,
  key_wrap_key: wrapKey.from === 'environment' ? 'from LPA_KEY_WRAP_KEY' : `in ${wrapKey.from}`,
  hostnames,
  access: access.LPA_ACCESS_ISSUER === LOCAL_ACCESS_ISSUER ? 'local stand-in: node scripts/local-access.mjs assertion <email>' : access.LPA_ACCESS_ISSUER,
}));

const wrangler = spawn(
  process.execPath,
  [
    join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--env', 'team',
    '--ip', '127.0.0.1', '--port', String(port),
    '--persist-to', join(dataRoot, 'state'),
    '--env-file', envFile,
    '--show-interactive-dev-session=false',
    '--log-level', process.env.LPA_TEAM_LOG_LEVEL || 'log',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    // Miniflare would fetch a sample `request.cf` from the internet: the service needs none.
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_LOG_PATH: join(dataRoot, 'wrangler-logs') },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => wrangler.kill(signal));
wrangler.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
