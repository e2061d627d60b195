import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { LaunchError } from './settings';
import type { LoopbackSocket } from './loopback-socket';

/** Waits until `url` answers 200, or gives up after `timeoutMs` (a LaunchError: the service did not start). */
export async function waitUntilReady(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  child: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new LaunchError(`workerd exited with code ${child.exitCode} before it was ready`);
    try {
      // A connection that takes but never answers (a server still starting) is tried again.
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new LaunchError(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * util-linux's setpriv (in every Debian and most Linux systems): it execs workerd with a parent-death
 * signal, so a launcher killed outright (SIGKILL, the OOM killer) takes its workerd with it. Elsewhere
 * (macOS) workerd is started as it is, and outlives such a launcher (docs/runs.md).
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/**
 * workerd runs in a process group of its own: a terminal's Ctrl-C (or a signal to the launcher's whole
 * group) reaches the launcher only, which writes the worker's buffered log lines and then stops
 * workerd itself (stopChild). In the launcher's group, workerd would die before that flush.
 */
export function startWorkerd(binary: string, configPath: string, http: LoopbackSocket): ChildProcess {
  // The bound socket becomes workerd's descriptor 3, its `http` socket (see ./loopback-socket.ts).
  const serve = [binary, 'serve', configPath, '--experimental', '--socket-fd', 'http=3'];
  const [command, ...args] = SETPRIV ? [SETPRIV, '--pdeathsig', 'KILL', '--', ...serve] : serve;
  const child = spawn(command!, args, {
    stdio: ['ignore', 'inherit', 'inherit', http.fd],
    detached: true,
  });
  http.close();
  return child;
}

/** Asks the child to stop, and kills it if it has not within `graceMs`. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
