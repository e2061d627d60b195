import { connect, createServer, type Socket } from 'node:net';
import { RequestHeads } from './request-heads';

/** A request head not whole this long after its first byte (or the accept) closes the connection. */
export const HEADER_TIMEOUT_MS = 15_000;

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
 * LPA's own listener in front of a runtime's HTTP server (workerd under `npm start`, Deno.serve),
 * which offer neither a cap on connections nor, on Deno, a header timeout: past the limit of open
 * files such a server's accept() fails and the process dies. The front door accepts on the public
 * port, closes at once what exceeds `maxConnections`, closes a connection whose request head is not
 * whole within HEADER_TIMEOUT_MS, and otherwise pipes the bytes unchanged to the server behind.
 *
 * The server behind reads the client's address from the connection (workerd's `cf.clientIp`, Deno's
 * `remoteAddr`), for the throttle and the logs. So the front door connects to it *from* the client's
 * own address: every client is on loopback (the service binds 127.0.0.1 only), and any 127.x.y.z
 * address can be bound on this machine. No header carries the address, so none can forge it.
 */
export async function openFrontDoor({ port, upstreamPort, maxConnections }: FrontDoorOptions): Promise<FrontDoor> {
  // Half-open both ways: a client that sends its request and shuts its side still gets the answer.
  const server = createServer({ noDelay: true, allowHalfOpen: true }, (client) => pipeToUpstream(client, upstreamPort));
  server.maxConnections = maxConnections;
  let refused = 0;
  const report = setInterval(() => {
    if (refused > 0) console.error(`${refused} connections refused in the last minute: ${maxConnections} were open (the cap below the limit of open files)`);
    refused = 0;
  }, 60_000).unref();
  server.on('drop', () => refused++);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  // After the start, an accept that fails (the limit of open files reached all the same) is one lost
  // connection, never the end of the service.
  server.on('error', (error) => console.error('the front door could not accept a connection:', error.message));
  return {
    // Stops accepting; the open connections end with the server behind, which stops next.
    close: () => {
      clearInterval(report);
      server.close();
    },
  };
}

function pipeToUpstream(client: Socket, upstreamPort: number): void {
  const from = client.remoteAddress;
  const upstream = connect({ host: '127.0.0.1', port: upstreamPort, noDelay: true, allowHalfOpen: true, localAddress: from && /^127\./.test(from) ? from : undefined });
  const closeBoth = () => {
    clearTimeout(clock);
    client.destroy();
    upstream.destroy();
  };
  const heads = new RequestHeads();
  let clock = setTimeout(closeBoth, HEADER_TIMEOUT_MS);
  client.on('data', (chunk: Buffer) => {
    const [state, heard] = [heads.state, heads.heard];
    heads.feed(chunk);
    if (heads.state === state && heads.heard === heard) return;
    clearTimeout(clock);
    if (heads.state === 'head') clock = setTimeout(closeBoth, HEADER_TIMEOUT_MS);
  });
  client.pipe(upstream).pipe(client);
  client.on('error', closeBoth).on('close', closeBoth);
  upstream.on('error', closeBoth).on('close', closeBoth);
}
