/**
 * Run by Bun: `bun bench/bun/tcp-hop.ts <port> <browser port>`. The bare TCP hop of bench/references.ts
 * on Bun's own sockets (`Bun.listen`, `Bun.connect`, of the kind `Bun.serve` gives LPA's relay under
 * `npm run start:bun`): the bytes passed both ways between its port and a browser's own DevTools port
 * on 127.0.0.1, never read.
 */
import type { Socket } from 'bun';

const [port, browserPort] = process.argv.slice(2).map(Number);

interface Side {
  /** The other end: the browser's connection for a client's, and the other way round (null until it is up). */
  peer: Socket<Side> | null;
  /** Bytes for this socket that it has not taken yet, in order (a write may take part of its bytes). */
  waiting: Uint8Array[];
  /** The client's bytes that came before the browser's connection was up. */
  early: Uint8Array[];
  closed: boolean;
}

const side = (peer: Socket<Side> | null): Side => ({ peer, waiting: [], early: [], closed: false });

function drain(socket: Socket<Side>): void {
  const { waiting } = socket.data;
  while (waiting.length > 0) {
    const next = waiting[0]!;
    const written = Math.max(socket.write(next), 0);
    if (written < next.length) {
      waiting[0] = next.subarray(written);
      return;
    }
    waiting.shift();
  }
}

function send(to: Socket<Side>, bytes: Uint8Array): void {
  let rest = bytes;
  if (to.data.waiting.length === 0) {
    const written = Math.max(to.write(bytes), 0);
    if (written === bytes.length) return;
    rest = bytes.subarray(written);
  }
  // Bun may reuse the buffer of `data` once the handler returns: what waits is a copy.
  to.data.waiting.push(rest.slice());
}

const handlers = {
  data(socket: Socket<Side>, bytes: Uint8Array) {
    if (socket.data.peer) send(socket.data.peer, bytes);
    else socket.data.early.push(bytes.slice());
  },
  drain,
  close(socket: Socket<Side>) {
    socket.data.closed = true;
    socket.data.peer?.end();
  },
  error(socket: Socket<Side>) {
    socket.data.peer?.end();
  },
};

Bun.listen<Side>({
  hostname: '127.0.0.1',
  port: port!,
  socket: {
    ...handlers,
    open(client) {
      client.data = side(null);
      void Bun.connect<Side>({
        hostname: '127.0.0.1',
        port: browserPort!,
        data: side(client),
        socket: {
          ...handlers,
          open(browser) {
            if (client.data.closed) {
              browser.end();
              return;
            }
            client.data.peer = browser;
            for (const bytes of client.data.early) send(browser, bytes);
            client.data.early = [];
          },
          connectError: () => {
            client.end();
          },
        },
      });
    },
  },
});
