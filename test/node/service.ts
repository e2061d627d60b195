import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
  text: string;
}

/**
 * The ports the tests give their servers: below Linux's ephemeral range (32768–60999), from which the
 * kernel picks the local port of every outgoing connection and of `listen(0)`. A port found free in
 * that range can be taken by any connection before the server it was meant for listens on it (seen
 * once: EADDRINUSE at a service's start); one below it is taken only by whoever asks for it by number.
 */
const TEST_PORTS = { from: 20_000, to: 32_767 };

/** A port that is free right now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = TEST_PORTS.from + Math.floor(Math.random() * (TEST_PORTS.to - TEST_PORTS.from + 1));
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** One HTTP request with full control of the headers (fetch will not send a chosen Host). */
export function raw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
        localAddress: options.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined, text });
        });
      },
    );
    req.once('error', reject);
    req.end(options.body);
  });
}

/**
 * One request written byte for byte on a raw socket (for what no HTTP client will send: a Host with
 * a space, say), read until the service closes the connection. The request should ask for
 * `Connection: close`; the socket is not half-closed, since a server may drop an answer then.
 */
export function rawExchange(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const [head = '', text = ''] = answer.split(/\r\n\r\n(.*)/s);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, json, text });
    });
  });
}

export interface RunningService {
  port: number;
  dataRoot: string;
  token: string;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export type Runtime = 'workerd' | 'bun' | 'deno';

/** Every runtime the service runs on: what the service tests loop over. */
export const RUNTIMES: Runtime[] = ['workerd', 'bun', 'deno'];

/** Bun from npm: `npm start`'s launcher runs on it, and so does the service under `npm run start:bun`. */
export const BUN = 'node_modules/.bin/bun';

/** How each runtime is started: what `npm start`, `npm run start:bun` and `npm run start:deno` run, without npm around it. */
const COMMANDS: Record<Runtime, [string, string[]]> = {
  workerd: [BUN, ['scripts/start.mjs']],
  bun: [BUN, ['src/runtimes/bun/main.ts']],
  deno: ['node_modules/@deno/linux-x64-glibc/deno', ['run', '-A', 'src/runtimes/deno/main.ts']],
};

/** Starts the service as its npm script does, on a free port and a data root of its own. */
export async function startService(
  runtime: Runtime,
  dataRoot = mkdtempSync(join(tmpdir(), 'lpa-svc-')),
  env: Record<string, string> = {},
  /**
   * `ownGroup`: the service leads a process group of its own, so that a test can signal the whole
   * group as a terminal does. `softFileLimit`: starts it with this soft limit of open files (the hard
   * limit unchanged), as a desktop's shell might; `fileLimit`: with this soft and hard limit, as
   * `ulimit -n 1024` in a shell sets.
   */
  {
    ownGroup = false,
    softFileLimit,
    fileLimit,
  }: { ownGroup?: boolean; softFileLimit?: number; fileLimit?: number } = {},
): Promise<RunningService> {
  const port = await freePort();
  const [binary, binaryArgs] = COMMANDS[runtime];
  const ulimit =
    softFileLimit !== undefined
      ? `ulimit -Sn ${softFileLimit}`
      : fileLimit !== undefined
        ? `ulimit -n ${fileLimit}`
        : undefined;
  const [command, args] =
    ulimit === undefined
      ? [binary, binaryArgs]
      : ['/bin/sh', ['-c', `${ulimit} && exec "$0" "$@"`, binary, ...binaryArgs]];
  const child = spawn(command, args, {
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', LPA_PORT: String(port), LPA_DATA_ROOT: dataRoot, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 25_000);
    child.stdout!.on('data', () => {
      if (output.includes('admin token:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`service exited:\n${output}`)));
  });
  const token = env.LPA_ADMIN_TOKEN ?? readFileSync(join(dataRoot, 'admin-token'), 'utf8').trim();
  return {
    port,
    dataRoot,
    token,
    process: child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/**
 * A service started before a describe block's tests and stopped after them, with `env` added to its
 * environment. `current` may be replaced (a test that restarts it); `auth()` is the admin token's header
 * for whichever runs.
 */
export function useService(runtime: Runtime, env: Record<string, string> = {}) {
  const held = {
    current: undefined as unknown as RunningService,
    auth: () => ({ authorization: `Bearer ${held.current.token}` }),
  };
  beforeAll(async () => {
    held.current = await startService(runtime, undefined, env);
  });
  afterAll(async () => {
    await held.current?.stop();
  });
  return held;
}
