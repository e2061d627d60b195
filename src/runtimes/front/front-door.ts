import type { Server } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { allowedAuthority, hostForbidden } from '../../pipeline/host-guard';
import { errorResponse } from '../../pipeline/respond';
import { HEADER_TIMEOUT_MS, type Head, HeadClock, parseHead } from './request-heads';
import { refusalReport } from './refusal-report';

export interface FrontDoorOptions {
  /** The public port, on 127.0.0.1. */
  port: number;
  /** Where the server behind listens, on 127.0.0.1. */
  upstreamPort: number;
  /** Connections served at once; one more is closed as soon as it is accepted. */
  maxConnections: number;
}

export interface FrontDoor {
  close(): void;
}

/**
 * A run's DevTools WebSocket taken at the front door (src/host/node/browsers): a connection whose
 * first head is a clean upgrade to a live run's endpoint goes to `server`, the relay's own HTTP
 * server in this process, instead of crossing workerd and the host socket for every message.
 */
export interface DevtoolsDoor {
  /** Whether `path` is a live run's WebSocket. */
  relays(path: string): boolean;
  /** A Node HTTP server (not listening) whose `upgrade` hands the socket to the relay. */
  server: Server;
}

/**
 * LPA's own listener in front of workerd under `npm start` (Node's `net`; Deno has its own,
 * ../deno/front-door.ts): workerd's config offers no cap on connections, and past the limit of open
 * files its accept() fails and workerd exits. The front door accepts on the public port, closes at
 * once what exceeds `maxConnections`, closes a connection whose request head is not whole within
 * HEADER_TIMEOUT_MS (./request-heads.ts), and otherwise pipes the bytes unchanged to workerd.
 *
 * workerd reads the client's address from the connection (`cf.clientIp`), for the throttle and the
 * logs. So the front door connects to it *from* the client's
 * own address: every client is on loopback (the service binds 127.0.0.1 only), and any 127.x.y.z
 * address can be bound on this machine. No header carries the address, so none can forge it.
 */
export async function openFrontDoor({
  port,
  upstreamPort,
  maxConnections,
  allowedHosts,
  devtools,
}: FrontDoorOptions & { allowedHosts: ReadonlySet<string>; devtools?: DevtoolsDoor }): Promise<FrontDoor> {
  // Half-open both ways: a client that sends its request and shuts its side still gets the answer.
  const server = createServer({ noDelay: true, allowHalfOpen: true }, (client) => {
    if (!devtools) return pipeToUpstream(client, upstreamPort, allowedHosts);
    firstHead(client, (bytes, head) => {
      if (head && takesDevtools(head, allowedHosts, devtools)) {
        client.unshift(bytes);
        devtools.server.emit('connection', client);
        client.resume();
      } else pipeToUpstream(client, upstreamPort, allowedHosts, bytes);
    });
  });
  server.maxConnections = maxConnections;
  const refusals = refusalReport(maxConnections);
  server.on('drop', () => refusals.count());
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  // After the start, an accept that fails (the limit of open files reached all the same) is one lost
  // connection, never the end of the service.
  server.on('error', (error) => console.error('the front door could not accept a connection:', error.message));
  return {
    // Stops accepting; the open connections end with the server behind, which stops next.
    close: () => {
      refusals.stop();
      server.close();
    },
  };
}

/**
 * workerd builds a request's URL from its Host header and drops the authority of an absolute-form
 * target (`GET http://evil.example/… HTTP/1.1`), so the pipeline's Host guard never sees it: the
 * front door, which reads every head, gives such a head the guard's 421 itself
 * (src/pipeline/host-guard.ts). The connection then closes; the head is never passed on.
 */
async function answerMisdirected(client: Socket, host: string): Promise<void> {
  const response = errorResponse(hostForbidden(host), crypto.randomUUID(), null);
  const body = await response.text();
  const fields = [...response.headers, ['content-length', String(Buffer.byteLength(body))], ['connection', 'close']];
  client.end(
    `HTTP/1.1 421 Misdirected Request\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`,
  );
}

/** The bytes a head may take before the front door stops waiting for it and passes the connection on as it is. */
const FIRST_HEAD_BYTES = 16 * 1024;

/**
 * Waits for the connection's first head (the bytes read so far, and the head, or null when it is
 * not whole within FIRST_HEAD_BYTES or the connection ends first), with the connection paused.
 */
function firstHead(client: Socket, then: (bytes: Buffer, head: Head | null) => void): void {
  let bytes = Buffer.alloc(0);
  // As for every head (./request-heads.ts): a client that sends none in time is let go.
  const timer = setTimeout(() => client.destroy(), HEADER_TIMEOUT_MS);
  const onError = () => {
    clearTimeout(timer);
    client.destroy();
  };
  const done = (head: Head | null) => {
    clearTimeout(timer);
    client.off('data', onData).off('end', onEnd).off('error', onError);
    client.pause();
    then(bytes, head);
  };
  const onEnd = () => done(null);
  const onData = (chunk: Buffer) => {
    bytes = Buffer.concat([bytes, chunk]);
    const end = bytes.indexOf('\r\n\r\n');
    if (end !== -1) done(parseHead(bytes.subarray(0, end).toString('latin1')));
    else if (bytes.length > FIRST_HEAD_BYTES) done(null);
  };
  client.on('data', onData).once('end', onEnd).once('error', onError);
}

/**
 * Only a head the service would pass as it is: `GET` of a live run's WebSocket in origin form, a
 * Host the Host guard allows and no Origin (DevTools clients send none; a page always does). Any
 * other goes on to workerd, whose guards refuse it and audit the refusal.
 */
function takesDevtools(
  { method, target, fields, wellFormed }: Head,
  allowedHosts: ReadonlySet<string>,
  devtools: DevtoolsDoor,
) {
  const named = new Map(fields);
  return (
    // A field given twice is left to the server behind, which judges every head.
    wellFormed &&
    named.size === fields.length &&
    method === 'GET' &&
    target.startsWith('/devtools/') &&
    named.get('upgrade')?.toLowerCase() === 'websocket' &&
    !named.has('origin') &&
    allowedHosts.has(named.get('host')?.toLowerCase() ?? '') &&
    devtools.relays(target.split('?')[0]!)
  );
}

function pipeToUpstream(
  client: Socket,
  upstreamPort: number,
  allowedHosts: ReadonlySet<string>,
  read: Buffer = Buffer.alloc(0),
): void {
  const from = client.remoteAddress;
  const upstream = connect({
    host: '127.0.0.1',
    port: upstreamPort,
    noDelay: true,
    allowHalfOpen: true,
    localAddress: from && /^127\./.test(from) ? from : undefined,
  });
  let misdirected = false;
  const closeBoth = () => {
    clock.stop();
    client.destroy();
    upstream.destroy();
  };
  const clock = new HeadClock(closeBoth, {
    allowed: (url) => allowedAuthority(url, allowedHosts),
    // Called from the listener below, which runs before the pipe's: the chunk that ended the head
    // is not written to workerd, and nothing after it is.
    refuse: (host) => {
      misdirected = true;
      // Both ways: on Bun, destroying workerd's socket would end the client through its pipe before the 421 is written.
      client.unpipe(upstream);
      upstream.unpipe(client);
      upstream.destroy();
      answerMisdirected(client, host).catch(closeBoth);
    },
  });
  client.on('data', (chunk: Buffer) => clock.seen(chunk));
  // What the front door read before it chose this way goes first, judged as every chunk is.
  if (read.length > 0) {
    clock.seen(read);
    if (!misdirected) upstream.write(read);
  }
  client.pipe(upstream).pipe(client);
  client.on('error', closeBoth).on('close', closeBoth);
  upstream.on('error', closeBoth).on('close', () => {
    if (!misdirected) closeBoth();
  });
}
