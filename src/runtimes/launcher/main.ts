/**
 * `npm start`: the real service, run compiled as dist/launcher.mjs (scripts/build.mjs, started by
 * scripts/start.mjs), next to the worker bundle dist/worker.js. Serves the host port on a private unix socket,
 * runs the workerd binary with a generated config on a private port of 127.0.0.1, and holds the
 * public port itself: the front door (../front/front-door.ts) caps connections and times request
 * heads, which workerd's config cannot. The process around it (settings, announcements, signals) is
 * `startProcess`, shared with the Bun and Deno entries.
 */
import { getRequestListener } from '@hono/node-server';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserRuns, nodeHost } from '../../host/node/node-host';
import { hostServer } from '../../host/node/server';
import { startProcess } from './process-startup';
import { startWorkerd, stopChild, waitUntilReady } from './supervise';
import { workerdBinary } from './workerd-binary';
import { workerdConfig } from './workerd-config';
import { FLUSH_SOCKET } from '../workerd/flush-logs';
import { openFrontDoor } from '../front/front-door';
import { connectionCap } from '../front/connection-cap';
import { loopbackSocket } from './loopback-socket';
import { closeRuns } from '../close-runs';
import { loopbackHosts } from '../../shared/config';

const READY_TIMEOUT_MS = 15_000;
/** The worker bundle built with this launcher, and the module it imports: all live in dist/. */
const WORKER_BUNDLE = new URL('./worker.js', import.meta.url);
const SHA256_WASM = new URL('./sha256.wasm', import.meta.url);

/**
 * Asks the worker, on its private flush socket, to write its buffered `api` log lines; a worker
 * that does not answer in time has nothing more to give.
 */
function flushWorkerLogs(socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ socketPath, method: 'POST', path: '/', timeout: 5_000 }, (response) => {
      response.resume();
      if (response.statusCode === 204) resolve();
      else reject(new Error(`the worker did not flush its api log (HTTP ${response.statusCode})`));
    });
    request.once('timeout', () => request.destroy(new Error('the worker did not flush its api log within 5 s')));
    request.once('error', reject);
    request.end();
  });
}

startProcess(async ({ settings, version, storeDir, onStop, fail }) => {
  // Generated files and the host socket live in a private temporary folder: short socket paths,
  // and nothing generated is left in the data root.
  const runDir = mkdtempSync(join(tmpdir(), 'lpa-'));
  onStop(() => rmSync(runDir, { recursive: true, force: true }));

  // The config embeds the bundle by a path relative to itself, so the bundle goes next to it.
  copyFileSync(WORKER_BUNDLE, join(runDir, 'worker.js'));
  copyFileSync(SHA256_WASM, join(runDir, 'sha256.wasm'));
  const hostSocket = join(runDir, 'host.sock');
  const browsers = browserRuns(settings);
  const hostPort = hostServer(nodeHost(settings.dataRoot, settings.team, browsers));
  // The worker passes a run's DevTools endpoint (`/devtools/<secret>/…`) through to the host that owns the browser.
  const host = createServer(
    getRequestListener(async (request) =>
      new URL(request.url).pathname.startsWith('/devtools/')
        ? ((await browsers.answerHttp(request)) ?? new Response(null, { status: 404 }))
        : hostPort(request),
    ),
  );
  host.on('upgrade', (request, socket, head) => browsers.upgrade(request, socket, head));
  // The same relay for the WebSockets the front door takes at once (../front/front-door.ts).
  const devtoolsServer = createServer();
  devtoolsServer.on('upgrade', (request, socket, head) => browsers.upgrade(request, socket, head));
  await new Promise<void>((resolve, reject) => host.once('error', reject).listen(hostSocket, resolve));
  onStop(() => host.close());
  // Runs after workerd has stopped (steps run last added first): no request can start a browser any more.
  onStop(() => browsers.stopAll());
  chmodSync(hostSocket, 0o600);

  // The public port is taken first: a port in use stops the start before workerd runs. Each client
  // connection costs the launcher two descriptors (the client's and workerd's) and workerd one.
  const http = await loopbackSocket();
  onStop(() => http.close());
  const httpPort = http.port;
  const door = await openFrontDoor({
    port: settings.port,
    upstreamPort: httpPort,
    maxConnections: connectionCap(2),
    // The names the worker's Host guard allows (src/shared/config.ts), for the targets workerd would drop.
    allowedHosts: new Set(loopbackHosts(settings.port)),
    devtools: { relays: (path) => browsers.relays(path), server: devtoolsServer },
  });
  onStop(() => door.close());

  const flushSocket = join(runDir, FLUSH_SOCKET);
  const configPath = join(runDir, 'config.capnp');
  writeFileSync(
    configPath,
    workerdConfig(
      settings,
      { bundle: 'worker.js', sha256Wasm: 'sha256.wasm', hostSocket, httpPort, flushSocket, storeDir },
      version,
    ),
  );
  const workerd = startWorkerd(workerdBinary, configPath, http);
  const base = `http://127.0.0.1:${settings.port}`;
  onStop(() => stopChild(workerd, 5_000));
  // Runs before workerd is stopped (steps run last added first): the worker's buffered api log lines reach the host.
  onStop(() => flushWorkerLogs(flushSocket));
  workerd.once('exit', (code, signal) => fail(`workerd stopped unexpectedly (${signal ?? `exit code ${code}`})`));

  await waitUntilReady(`${base}/status`, {}, READY_TIMEOUT_MS, workerd);
  // The first authenticated call opens the store: migrations, keys, and the start-up audit entry.
  await waitUntilReady(
    `${base}/api/v1/version`,
    { authorization: `Bearer ${settings.adminToken}` },
    READY_TIMEOUT_MS,
    workerd,
  );
  // Runs first (added last): workerd still serves the request that closes the runs.
  onStop(() => closeRuns(browsers, settings, (request) => fetch(request)));
  return 'workerd';
});
