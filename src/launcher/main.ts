/**
 * `npm start`: the real service. Bundles the worker, serves the host port on a private unix socket,
 * and runs the workerd binary with a generated config on 127.0.0.1. Stops workerd cleanly on
 * SIGINT/SIGTERM.
 */
import { getRequestListener } from '@hono/node-server';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createHostHandler } from '../host/node/host-handler';
import { announceStart, announceStop } from './announce';
import { bundleWorker } from './bundle';
import { LaunchError, launchSettings } from './settings';
import { startWorkerd, stopChild, waitUntilReady } from './supervise';
import { workerdConfig } from './workerd-config';

const READY_TIMEOUT_MS = 15_000;
/** The workerd binary that the `workerd` npm package installed for this platform. */
const workerdBinary = (createRequire(import.meta.url)('workerd') as { default: string }).default;

async function main(): Promise<void> {
  const startedAt = performance.now();
  // Everything the service and workerd create under the data root is private to this user.
  process.umask(0o077);
  const settings = launchSettings(process.env);
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  // Generated files and the host socket live in a private temporary folder: short socket paths,
  // and nothing generated is left in the data root.
  const runDir = mkdtempSync(join(tmpdir(), 'lpa-'));
  const storeDir = join(settings.dataRoot, 'store');
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });

  await bundleWorker(join(runDir, 'worker.js'));
  const hostSocket = join(runDir, 'host.sock');
  const host = createServer(getRequestListener(createHostHandler(settings.dataRoot)));
  await new Promise<void>((resolve, reject) => host.once('error', reject).listen(hostSocket, resolve));
  chmodSync(hostSocket, 0o600);

  const configPath = join(runDir, 'config.capnp');
  writeFileSync(configPath, workerdConfig(settings, { bundle: 'worker.js', hostSocket, storeDir }, version));
  const workerd = startWorkerd(workerdBinary, configPath);

  let stopping = false;
  const shutdown = async (code: number, reason: string) => {
    if (stopping) return;
    stopping = true;
    announceStop(settings, reason, code === 0 ? 'info' : 'error');
    await stopChild(workerd, 5_000);
    host.close();
    rmSync(runDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.once('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  workerd.once('exit', (code, signal) => {
    if (stopping) return;
    const reason = `workerd stopped unexpectedly (${signal ?? `exit code ${code}`})`;
    console.error(reason);
    void shutdown(1, reason);
  });

  const base = `http://127.0.0.1:${settings.port}`;
  try {
    await waitUntilReady(`${base}/status`, {}, READY_TIMEOUT_MS, workerd);
    // The first authenticated call opens the store: migrations, keys, and the start-up audit entry.
    await waitUntilReady(`${base}/api/v1/version`, { authorization: `Bearer ${settings.adminToken}` }, READY_TIMEOUT_MS, workerd);
  } catch (error) {
    console.error(`LPA did not start: ${(error as Error).message}`);
    return shutdown(1, `did not start: ${(error as Error).message}`);
  }
  announceStart(settings, version, 'workerd', performance.now() - startedAt);
}

main().catch((error: unknown) => {
  console.error(error instanceof LaunchError ? `LPA: ${error.message}` : error);
  process.exit(1);
});
