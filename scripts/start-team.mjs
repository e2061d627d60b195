/**
 * `npm run start:team`: the team service (docs/teams.md#run-it-locally) in Wrangler's local mode.
 * `wrangler deploy --dry-run --env team` bundles src/runtimes/cloudflare/team-worker.ts into
 * dist/ exactly as `wrangler deploy --env team` uploads it, and Miniflare (the local mode
 * `wrangler dev` runs on) serves that bundle with wrangler.toml's [env.team] bindings as Wrangler reads
 * them: the teams' SQLite Durable Objects, the R2 bucket, the rate limiter, the vars and the secrets,
 * with everything kept under LPA_TEAM_DATA_ROOT (`state/`, the layout `wrangler dev --persist-to`
 * keeps), so that a restart finds every team as it was.
 *
 * The teams' objects are spread over LPA_TEAM_PROCESSES such Miniflares, each its own workerd (one
 * thread each, as each object has its own on Cloudflare), behind a front on LPA_TEAM_PORT that sends
 * every team's requests to the process its object was placed in (./team-front.mjs,
 * ./team-placement.mjs). With one process, Miniflare listens on LPA_TEAM_PORT itself.
 *
 * Not `wrangler dev` itself: it puts a proxy (a second workerd) and its own Node process in front of
 * the Worker and attaches a DevTools inspector to relay its logs, which cost three quarters of the CPU
 * of every write (docs/benchmarks.md#the-team-service-under-load); nothing of them is deployed.
 *
 * The two secrets come from the environment, or are made on first start into the data root (mode
 * 0600) and read from there afterwards: LPA_KEY_WRAP_KEY (`key-wrap.key`; losing it loses every
 * team's keys) and LPA_OPERATOR_TOKEN (`operator-token`; only its path is printed). They reach the
 * Worker as bindings, in memory only. LPA_TEAM_LOG_LEVEL takes Wrangler's `--log-level` values;
 * LPA_TEAM_INSPECTOR_PORT opens DevTools' inspector on the Worker (for a CPU profile), the next
 * ports on the other processes.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, extname, join, matchesGlob, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';
import { buildConsole, consoleIsStale } from './build-console.mjs';
import { DIST, newestSource } from './build-stale.mjs';
import { LOCAL_ACCESS_ISSUER, serveLocalAccess } from './local-access.mjs';
import { writeSha256Wasm } from './sha256-wasm.mjs';

// The script loads TypeScript of the project as it is (the data root's privacy, the team path's
// declaration), as Node runs TypeScript: by stripping its types, on by default from Node 22.18 (npm
// scripts run on the pinned Node 22).
if (!process.features.typescript) {
  console.error(
    `npm run start:team needs a Node that strips TypeScript's types (22.18 or newer), not ${process.version}: run npm run start:team.`,
  );
  process.exit(2);
}
const { keepFilesPrivate } = await import('../src/runtimes/launcher/private-files.ts');
const { PLACEMENT_FILE, readPlacement, teamPlacement } = await import('./team-placement.mjs');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.LPA_TEAM_PORT || 8720);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`LPA_TEAM_PORT must be a port number (1-65535), not ${JSON.stringify(process.env.LPA_TEAM_PORT)}`);
  process.exit(2);
}
/** Wrangler's `--log-level` values, quietest first: a Worker's log line shows when its level is at most the one set. */
const LOG_LEVELS = ['none', 'error', 'warn', 'info', 'log', 'debug'];
const WRANGLER_MARKS = { error: '✘ [ERROR]', warn: '▲ [WARNING]' };
const MINIFLARE_LEVELS = {
  none: LogLevel.NONE,
  error: LogLevel.ERROR,
  warn: LogLevel.WARN,
  info: LogLevel.INFO,
  log: LogLevel.INFO,
  debug: LogLevel.DEBUG,
};
const logLevel = process.env.LPA_TEAM_LOG_LEVEL || 'log';
if (!LOG_LEVELS.includes(logLevel)) {
  console.error(`LPA_TEAM_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(logLevel)}`);
  process.exit(2);
}
/** Where DevTools (or a profiler) can attach to the Worker and its objects: off unless asked for. */
const inspectorPort = process.env.LPA_TEAM_INSPECTOR_PORT ? Number(process.env.LPA_TEAM_INSPECTOR_PORT) : null;
if (inspectorPort !== null && !(Number.isInteger(inspectorPort) && inspectorPort >= 1 && inspectorPort <= 65535)) {
  console.error(
    `LPA_TEAM_INSPECTOR_PORT must be a port number (1-65535), not ${JSON.stringify(process.env.LPA_TEAM_INSPECTOR_PORT)}`,
  );
  process.exit(2);
}
const dataRoot = resolve(process.env.LPA_TEAM_DATA_ROOT || './data-team');
// Like the local service's: the teams' SQLite files, the R2 bucket, the bundle in dist/, the secrets and the
// placement are the user's alone from their first write, whoever writes them (Miniflare, workerd, Wrangler).
keepFilesPrivate();
mkdirSync(dataRoot, { recursive: true, mode: 0o700 });

/**
 * How many workerd processes hold the teams' objects (each team's in one of them, ./team-placement.mjs):
 * fixed when the data root is first used and kept in it, since a team's object stays in the process
 * it was created in. A data root made when there was a single one keeps one.
 */
const MAX_PROCESSES = 16;
/** One per core, as Cloudflare runs objects on threads of their own: one thread for every team was the p99's bound (docs/benchmarks.md). */
const DEFAULT_PROCESSES = Math.min(availableParallelism(), 4);
function processCount() {
  const asked = process.env.LPA_TEAM_PROCESSES;
  if (asked !== undefined && !(/^\d+$/.test(asked) && Number(asked) >= 1 && Number(asked) <= MAX_PROCESSES)) {
    console.error(`LPA_TEAM_PROCESSES must be a whole number from 1 to ${MAX_PROCESSES}, not ${JSON.stringify(asked)}`);
    process.exit(2);
  }
  let placed;
  try {
    placed = readPlacement(dataRoot);
  } catch (error) {
    console.error(
      `${join(dataRoot, PLACEMENT_FILE)} cannot be read (${error.message}): it says which process holds each team, so the service does not start without it.`,
    );
    process.exit(2);
  }
  if (
    placed !== null &&
    !(Number.isInteger(placed?.processes) && placed.processes >= 1 && placed.processes <= MAX_PROCESSES)
  ) {
    console.error(
      `${join(dataRoot, PLACEMENT_FILE)} names no number of processes from 1 to ${MAX_PROCESSES}: the service does not start without it.`,
    );
    process.exit(2);
  }
  const kept = placed?.processes ?? (existsSync(join(dataRoot, 'state')) ? 1 : null);
  if (kept !== null && asked !== undefined && Number(asked) !== kept) {
    console.error(
      `${dataRoot} keeps its teams in ${kept} workerd process(es); LPA_TEAM_PROCESSES=${asked} would not find them. Unset it, or use another LPA_TEAM_DATA_ROOT.`,
    );
    process.exit(2);
  }
  return kept ?? (asked !== undefined ? Number(asked) : DEFAULT_PROCESSES);
}
const processes = processCount();
const { openTeamFront } = processes === 1 ? {} : await import('./team-front.mjs');
// Written before any process keeps state, so that the data root never holds teams without saying how many processes hold them.
const placement = processes === 1 ? null : await teamPlacement(dataRoot, processes);

/** A secret from the environment, or the one in the data root's file (made there first when absent). */
function secret(name, file, make) {
  if (process.env[name]) return { value: process.env[name], from: 'environment' };
  const path = join(dataRoot, file);
  if (!existsSync(path)) writeFileSync(path, `${make()}\n`, { mode: 0o600, flag: 'wx' });
  return { value: readFileSync(path, 'utf8').trim(), from: path };
}

const wrapKey = secret('LPA_KEY_WRAP_KEY', 'key-wrap.key', () => randomBytes(32).toString('base64'));
const operator = secret(
  'LPA_OPERATOR_TOKEN',
  'operator-token',
  () => `lpa_op_${randomBytes(32).toString('base64url')}`,
);
// What shows the Worker that a request came through the front, which alone sets CF-Connecting-IP
// (src/shared/team-front-key.ts): made anew at every start, as nothing else needs to know it.
const frontKey = processes === 1 ? null : randomBytes(32).toString('base64url');
const hostnames = process.env.LPA_TEAM_HOSTNAMES || `127.0.0.1:${port},localhost:${port}`;
const accessNames = ['LPA_ACCESS_JWKS_URL', 'LPA_ACCESS_AUD', 'LPA_ACCESS_ISSUER'];
// Without Cloudflare Access in front, people sign in through a stand-in on this machine (./local-access.mjs).
const access = accessNames.every((name) => process.env[name])
  ? Object.fromEntries(accessNames.map((name) => [name, process.env[name]]))
  : await serveLocalAccess(dataRoot);

// What the Worker gets beside wrangler.toml's vars, as Wrangler would give it its secrets: in memory only.
const vars = {
  LPA_KEY_WRAP_KEY: wrapKey.value,
  LPA_OPERATOR_TOKEN: operator.value,
  LPA_TEAM_HOSTNAMES: hostnames,
  ...access,
  ...(frontKey === null ? {} : { TEAM_FRONT_KEY: frontKey }),
  ...(process.env.LPA_ALLOWED_ORIGINS ? { LPA_ALLOWED_ORIGINS: process.env.LPA_ALLOWED_ORIGINS } : {}),
  ...(process.env.LPA_RUN_LEASE_MS ? { LPA_RUN_LEASE_MS: process.env.LPA_RUN_LEASE_MS } : {}),
  ...(process.env.LPA_BUNDLE_MAX_BYTES ? { LPA_BUNDLE_MAX_BYTES: process.env.LPA_BUNDLE_MAX_BYTES } : {}),
};

// The worker imports these generated modules, as `npm start`'s does.
writeSha256Wasm();
if (consoleIsStale()) await buildConsole();

console.log(
  JSON.stringify({
    service: 'lpa-team',
    url: `http://127.0.0.1:${port}`,
    data_root: dataRoot,
    operator_token: operator.from === 'environment' ? 'from LPA_OPERATOR_TOKEN' : `in ${operator.from}`,
    key_wrap_key: wrapKey.from === 'environment' ? 'from LPA_KEY_WRAP_KEY' : `in ${wrapKey.from}`,
    hostnames,
    processes,
    access:
      access.LPA_ACCESS_ISSUER === LOCAL_ACCESS_ISSUER
        ? 'local stand-in: node scripts/local-access.mjs assertion <email>'
        : access.LPA_ACCESS_ISSUER,
  }),
);

/**
 * The bundle `wrangler deploy --env team` uploads, made the way it makes it, in a folder of dist/
 * named by the newest change of its sources: Wrangler's build takes 1.6 s of CPU, so it runs only
 * when a source changed since, as `npm start` rebuilds dist/ (./build-stale.mjs). It is built aside
 * and renamed into place whole, so starts at once never read half of one: the first to finish
 * places it, and the others take that one. Folders of older sources are removed.
 */
function teamBundle() {
  const name = `team-bundle-${Math.trunc(newestSource(['wrangler.toml', 'scripts/start-team.mjs']))}`;
  const bundle = join(DIST, name);
  if (existsSync(bundle)) return bundle;
  mkdirSync(DIST, { recursive: true });
  const building = mkdtempSync(join(DIST, 'building-team-bundle-'));
  const built = spawnSync(
    process.execPath,
    [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--env', 'team', '--outdir', building],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(dataRoot, 'wrangler-logs') },
    },
  );
  if (built.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    console.error(`wrangler deploy --dry-run --env team failed:\n${built.stdout}${built.stderr}`);
    process.exit(1);
  }
  try {
    renameSync(building, bundle);
  } catch (error) {
    // Another start placed the same sources' bundle first.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    rmSync(building, { recursive: true, force: true });
  }
  for (const older of readdirSync(DIST))
    if (older.startsWith('team-bundle-') && older !== name) rmSync(join(DIST, older), { recursive: true, force: true });
  return bundle;
}
const bundle = teamBundle();

// wrangler.toml's [env.team] bindings (Durable Object class with SQLite, R2 bucket, rate limiter, vars), as Wrangler's local mode reads them.
const config = unstable_readConfig({ config: join(root, 'wrangler.toml'), env: 'team' });
const {
  workerOptions: { modulesRules, ...workerOptions },
  main,
} = unstable_getMiniflareWorkerOptions(config, 'team');
// The bundle's modules as deploy uploads them: the entry point and the WebAssembly it imports, by the rules wrangler.toml's (and Wrangler's defaults) give.
const entry = `${basename(main, extname(main))}.js`;
const moduleType = (file) =>
  file === entry ? 'ESModule' : modulesRules.find((rule) => rule.include.some((glob) => matchesGlob(file, glob)))?.type;
const modules = readdirSync(bundle)
  .map((file) => ({ type: moduleType(file), path: join(bundle, file) }))
  .filter((module) => module.type !== undefined)
  .sort((a, b) => (a.type === 'ESModule' ? -1 : b.type === 'ESModule' ? 1 : 0));
/** The i-th process: its own workerd, its own state under the data root (the first one's where a single one kept it). */
const startProcess = (i) =>
  new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      // A single process listens on the service's port itself; behind the front, Miniflare's own port is unused.
      port: processes === 1 ? port : 0,
      ...(inspectorPort === null ? {} : { inspectorPort: inspectorPort + i }),
      // Miniflare would fetch a sample `request.cf` from the internet: the service needs none.
      cf: false,
      log: new Log(MINIFLARE_LEVELS[logLevel]),
      // The Worker logs every request itself; Miniflare's own line per request would say it twice.
      logRequests: false,
      telemetry: { enabled: false },
      // The Worker's console and workerd's own errors, marked as Wrangler marks them.
      handleStructuredLogs: ({ level, message }) => {
        if (LOG_LEVELS.indexOf(level) > LOG_LEVELS.indexOf(logLevel)) return;
        if (level === 'error' || level === 'warn') process.stderr.write(`${WRANGLER_MARKS[level]} ${message}\n`);
        else process.stdout.write(`${message}\n`);
      },
      // The layout `wrangler dev --persist-to <data root>/state` keeps: <state>/v3/do/lpa-team-TeamObject, …/r2, …/ratelimit.
      resourcePersistencePath: join(dataRoot, i === 0 ? 'state' : `state-${i}`, 'v3'),
      workers: [
        {
          ...workerOptions,
          // The Durable Objects' directory and ids derive from the Worker's name, as under Wrangler.
          name: config.name,
          rootPath: root,
          modules,
          modulesRoot: bundle,
          bindings: { ...workerOptions.bindings, ...vars },
          // Behind the front, which sets CF-Connecting-IP as Cloudflare's edge does, requests reach the
          // Worker straight from workerd's socket, without Miniflare's entry Worker: a second isolate on the
          // same thread that handled every request again and paused for its own collections.
          ...(processes === 1 ? {} : { unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] }),
        },
      ],
    }),
  );
const workerds = Array.from({ length: processes }, (_, i) => startProcess(i));
await Promise.all(workerds.map((mf) => mf.ready));
const front =
  processes === 1
    ? null
    : await openTeamFront({
        port,
        upstreams: await Promise.all(
          workerds.map(async (mf) => Number((await mf.unsafeGetDirectURL(config.name)).port)),
        ),
        placement,
        frontKey,
      });

const stop = () =>
  Promise.allSettled([front?.close(), ...workerds.map((mf) => mf.dispose())]).finally(() => process.exit(0));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, stop);
