import { connect, createServer, type Socket } from 'node:net';
import { allowedAuthority, hostForbidden } from '../../pipeline/host-guard';
import { errorResponse } from '../../pipeline/respond';
import { HeadClock } from './request-heads';
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
}: FrontDoorOptions & { allowedHosts: ReadonlySet<string> }): Promise<FrontDoor> {
  // Half-open both ways: a client that sends its request and shuts its side still gets the answer.
  const server = createServer({ noDelay: true, allowHalfOpen: true }, (client) =>
    pipeToUpstream(client, upstreamPort, allowedHosts),
  );
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

function pipeToUpstream(client: Socket, upstreamPort: number, allowedHosts: ReadonlySet<string>): void {
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
      client.unpipe(upstream);
      upstream.destroy();
      answerMisdirected(client, host).catch(closeBoth);
    },
  });
  client.on('data', (chunk: Buffer) => clock.seen(chunk));
  client.pipe(upstream).pipe(client);
  client.on('error', closeBoth).on('close', closeBoth);
  upstream.on('error', closeBoth).on('close', () => {
    if (!misdirected) closeBoth();
  });
}
