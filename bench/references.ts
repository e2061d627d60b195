/** The reference servers and the SQLite reference, each started fresh on this machine. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startWorkerd, stopChild, waitUntilReady } from '../src/runtimes/launcher/supervise';
import { workerdBinary } from '../src/runtimes/launcher/workerd-binary';
import { COMPATIBILITY_DATE } from '../src/runtimes/launcher/workerd-config';
import { freePort } from '../test/node/service';
import { loopbackSocket } from '../src/runtimes/launcher/loopback-socket';

export const BUN = 'node_modules/.bin/bun';

export interface Server {
  port: number;
  stop: () => Promise<void>;
}

async function ready(child: ChildProcess, port: number, cleanup = () => {}, path = '/'): Promise<Server> {
  await waitUntilReady(`http://127.0.0.1:${port}${path}`, {}, 15_000, child);
  return {
    port,
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
 * A bare TCP hop in its own process: bytes piped both ways between its port and a browser's own
 * DevTools port on 127.0.0.1, never read. Any relay between a client and the browser wakes one more
 * process per message each way, as this does; a round trip through it is the least that LPA's
 * endpoint, which also reads each message, can take.
 */
export async function tcpHop(browserPort: number): Promise<Server> {
  const port = await freePort();
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
