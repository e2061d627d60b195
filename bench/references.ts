/** The reference servers and the SQLite reference, each started fresh on this machine. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startWorkerd, stopChild, waitUntilReady } from '../src/runtimes/launcher/supervise';
import { workerdBinary } from '../src/runtimes/launcher/workerd-binary';
import { COMPATIBILITY_DATE } from '../src/runtimes/launcher/workerd-config';
import { BUN, freePort } from '../test/node/service';
import { loopbackSocket } from '../src/runtimes/launcher/loopback-socket';
import { lpaSwitches } from './browsers';

export interface Server {
  port: number;
  pid: number;
  stop: () => Promise<void>;
}

async function ready(child: ChildProcess, port: number, cleanup = () => {}, path = '/'): Promise<Server> {
  await waitUntilReady(`http://127.0.0.1:${port}${path}`, {}, 15_000, child);
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child, 2_000);
      cleanup();
    },
  };
}

/** A bare node:http hello-world in its own process (not sharing the load generator's event loop). */
export async function nodeHello(): Promise<Server> {
  const port = await freePort();
  const script = `require('node:http').createServer((q, s) => s.end('hello')).listen(${port}, '127.0.0.1')`;
  return ready(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }), port);
}

/**
 * A bare TCP hop in its own process: bytes passed both ways between its port and a browser's own
 * DevTools port on 127.0.0.1, never read. Any relay between a client and the browser wakes one more
 * process per message each way, as this does; a round trip through it is the least that a relay on
 * that runtime, which also reads each message, can take. On Bun's own sockets (./bun/tcp-hop.ts; the
 * launcher's runtime, and the service's under `npm run start:bun`) or on Node's `net` (where the
 * launcher ran until Node's CPU per message kept its round trip over target): what the runtime of the
 * process in between costs.
 */
export async function tcpHop(browserPort: number, runtime: 'node' | 'bun'): Promise<Server> {
  const port = await freePort();
  if (runtime === 'bun') {
    const args = [join('bench', 'bun', 'tcp-hop.ts'), String(port), String(browserPort)];
    return ready(spawn(BUN, args, { stdio: 'ignore' }), port, undefined, '/json/version');
  }
  const script = `const net = require('node:net');
net.createServer({ noDelay: true }, (client) => {
  const browser = net.connect({ port: ${browserPort}, host: '127.0.0.1', noDelay: true });
  client.pipe(browser).pipe(client);
  client.on('error', () => browser.destroy());
  browser.on('error', () => client.destroy());
}).listen(${port}, '127.0.0.1');`;
  return ready(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }), port, undefined, '/json/version');
}

/**
 * A minimal relay over the pipe in its own process: a browser of its own started with LPA's switches
 * on `folder` (`--remote-debugging-pipe` among them), and each text of one WebSocket client written to the
 * pipe as it came, each message of the pipe sent back as it came, with the `ws` package LPA's relay
 * uses and nothing else: no session of its own, no id or session read. It listens once the browser
 * has answered `Browser.getVersion`. Run on Bun, the launcher's runtime: what any relay between a
 * WebSocket and the pipe costs there, before LPA's own work (sessions per client, the check of each
 * message's session).
 */
export async function pipeRelay(browserPath: string, folder: string): Promise<Server> {
  const port = await freePort();
  const switches = lpaSwitches(folder);
  const script = `const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { WebSocketServer } = require('ws');
const browser = spawn(${JSON.stringify(browserPath)}, ${JSON.stringify(switches)}, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const [, , , toBrowser, fromBrowser] = browser.stdio;
const server = createServer((request, response) => response.end('ready'));
let client = null;
let answered = false;
let pending = [];
fromBrowser.on('data', (chunk) => {
  let start = 0;
  for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
    pending.push(chunk.subarray(start, end));
    const text = Buffer.concat(pending).toString();
    pending = [];
    start = end + 1;
    if (client) client.send(text);
    else if (!answered) {
      answered = true;
      server.listen(${port}, '127.0.0.1');
    }
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
toBrowser.write(JSON.stringify({ id: 0, method: 'Browser.getVersion' }) + '\\0');
new WebSocketServer({ server }).on('connection', (socket) => {
  client = socket;
  socket.on('message', (data) => toBrowser.write(data + '\\0'));
});
browser.once('exit', () => process.exit(0));
process.on('SIGTERM', () => browser.kill());`;
  // The browser's helper processes may still be writing to the folder as its main process exits.
  return ready(spawn(BUN, ['-e', script], { stdio: 'ignore' }), port, () =>
    rmSync(folder, { recursive: true, force: true, maxRetries: 5 }),
  );
}

/**
 * The worker of the reference: "hello"; "hello" after one RPC to a SQLite-backed Durable Object that
 * reads one row; or after one that writes one row (its own commit, as workerd makes it durable).
 */
const HELLO_WORKERS = {
  plain: "export default { fetch() { return new Response('hello'); } };",
  rpc: `import { DurableObject } from 'cloudflare:workers';
export class Store extends DurableObject {
  read() { return this.ctx.storage.sql.exec('SELECT 1 AS one').one().one; }
}
export default {
  async fetch(request, env) {
    const stub = env.STORE.get(env.STORE.idFromName('store'));
    return new Response('hello ' + (await stub.read()));
  },
};`,
  write: `import { DurableObject } from 'cloudflare:workers';
export class Store extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)');
  }
  write() { return this.ctx.storage.sql.exec('INSERT INTO t (v) VALUES (?)', 'x'.repeat(64)).rowsWritten; }
}
export default {
  async fetch(request, env) {
    const stub = env.STORE.get(env.STORE.idFromName('store'));
    return new Response('hello ' + (await stub.write()));
  },
};`,
} as const;

/**
 * `workerd serve` with one inline worker, on the binary of `npm start`: the runtime's own limit for
 * a request, and for a request that makes one Durable Object RPC (as every store call of LPA does).
 */
export async function workerdHello(kind: keyof typeof HELLO_WORKERS): Promise<Server> {
  const http = await loopbackSocket();
  const port = http.port;
  const dir = mkdtempSync(join(tmpdir(), 'lpa-bench-hello-'));
  const config = join(dir, 'hello.capnp');
  const store = kind !== 'plain';
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "hello", worker = .hello)${store ? `, (name = "disk", disk = (path = ${JSON.stringify(dir)}, writable = true))` : ''}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "hello")],
);
const hello :Workerd.Worker = (
  modules = [(name = "hello.js", esModule = ${JSON.stringify(HELLO_WORKERS[kind])})],
  compatibilityDate = ${JSON.stringify(COMPATIBILITY_DATE)},
${
  store
    ? `  bindings = [(name = "STORE", durableObjectNamespace = "Store")],
  durableObjectNamespaces = [(className = "Store", uniqueKey = "hello-store", enableSql = true, preventEviction = true)],
  durableObjectStorage = (localDisk = "disk"),
`
    : ''
});
`,
  );
  return ready(startWorkerd(workerdBinary, config, http), port, () => rmSync(dir, { recursive: true, force: true }));
}

/** Runs a Bun script of bench/bun and parses the JSON line it prints. */
export async function bunScript<T>(script: string, args: string[], timeoutMs: number): Promise<T> {
  const { stdout } = await promisify(execFile)(BUN, [join('bench', 'bun', script), ...args], {
    timeout: timeoutMs,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

/** WAL commits with synchronous=FULL per second in `dir` (the data root's disk); see bench/bun/sqlite-commits.ts. */
export async function sqliteCommits(dir: string, seconds: number, kind: 'row' | 'audited'): Promise<number> {
  const result = await bunScript<{ per_second: number }>(
    'sqlite-commits.ts',
    [dir, String(seconds), kind],
    seconds * 1000 + 30_000,
  );
  return result.per_second;
}
