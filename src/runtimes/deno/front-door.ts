import { HeadClock } from '../front/request-heads';
import { refusalReport } from '../front/refusal-report';
import type { FrontDoorOptions } from '../front/front-door';

export interface DenoFrontDoor {
  /** The client a connection to Deno.serve was made for, by that connection's local end ("host:port"); undefined for one made by anyone else. */
  clientOf(remote: { hostname: string; port: number }): string | undefined;
  close(): void;
}

/**
 * The front door of ../front/front-door.ts on Deno's own sockets: Deno.serve takes no cap on
 * connections and no header timeout, and past the limit of open files it throws and the process
 * exits. (Deno's `node:net` stopped accepting for good once its cap was reached, so it is not used.)
 * Deno.connect cannot bind a chosen local address, so the client's address travels by the pipe's
 * own local end instead: Deno.serve sees the pipe as its peer, and `clientOf` names the client that
 * pipe was opened for. Nothing a client sends can change it.
 */
export function openDenoFrontDoor({ port, upstreamPort, maxConnections }: FrontDoorOptions): DenoFrontDoor {
  const listener = Deno.listen({ hostname: '127.0.0.1', port });
  const clients = new Map<string, string>();
  const refusals = refusalReport(maxConnections);
  let open = 0;
  let closed = false;

  const serveOne = async (client: Deno.TcpConn) => {
    let upstream: Deno.TcpConn | undefined;
    const clock = new HeadClock(() => closeBoth());
    const closeBoth = () => {
      clock.stop();
      for (const conn of [client, upstream]) {
        try {
          conn?.close();
        } catch {
          // already closed
        }
      }
    };
    try {
      upstream = await Deno.connect({ hostname: '127.0.0.1', port: upstreamPort });
      const pipeEnd = `${upstream.localAddr.hostname}:${upstream.localAddr.port}`;
      clients.set(pipeEnd, client.remoteAddr.hostname);
      try {
        await Promise.all([copy(client, upstream, (chunk) => clock.seen(chunk)), copy(upstream, client)]);
      } finally {
        clients.delete(pipeEnd);
      }
    } catch {
      // a reset or a closed side: the connection is over
    } finally {
      closeBoth();
    }
  };

  void (async () => {
    while (!closed) {
      let client: Deno.TcpConn;
      try {
        client = await listener.accept();
      } catch (error) {
        if (closed || error instanceof Deno.errors.BadResource) return;
        // The limit of open files reached all the same: one lost connection, never the end of the service.
        console.error('the front door could not accept a connection:', (error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (open >= maxConnections) {
        client.close();
        refusals.count();
        continue;
      }
      client.setNoDelay(true);
      open++;
      void serveOne(client).finally(() => open--);
    }
  })();

  return {
    clientOf: ({ hostname, port: remotePort }) => clients.get(`${hostname}:${remotePort}`),
    close: () => {
      closed = true;
      refusals.stop();
      listener.close();
    },
  };
}

/** Copies one direction until its end, then shuts the other side's writing half (the answer to a half-closed request still flows). */
async function copy(from: Deno.Conn, to: Deno.Conn, seen?: (chunk: Uint8Array) => void): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await from.read(buffer);
    if (n === null) break;
    const chunk = buffer.subarray(0, n);
    seen?.(chunk);
    for (let at = 0; at < n; ) at += await to.write(chunk.subarray(at));
  }
  await to.closeWrite();
}
