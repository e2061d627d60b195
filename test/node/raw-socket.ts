import { connect } from 'node:net';

export interface SocketAnswer {
  status: number;
  head: string;
  body: string;
}

/**
 * Writes bytes to the service on a socket of its own, as an attacker's tool would (no HTTP client
 * in between to fix the request up), and reads the first answer. `then` decides what follows the
 * bytes: 'wait' keeps the socket open, 'half-close' ends the sending side, 'abort' destroys it.
 */
export function rawExchange(
  port: number,
  bytes: string,
  then: 'wait' | 'half-close' | 'abort' = 'wait',
  timeoutMs = 10_000,
): Promise<SocketAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms: ${received.slice(0, 200)}`));
    }, timeoutMs);
    const finish = (answer: SocketAnswer | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('connect', () => {
      socket.write(bytes);
      if (then === 'half-close') socket.end();
      if (then === 'abort') setTimeout(() => finish(null), 200);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return;
      const head = received.slice(0, split);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const body = received.slice(split + 4);
      if (length && Buffer.byteLength(body) >= Number(length[1]))
        finish({ status: Number(head.split(' ')[1]), head, body });
    });
    socket.on('end', () => {
      const split = received.indexOf('\r\n\r\n');
      finish(
        split < 0
          ? null
          : { status: Number(received.split(' ')[1]), head: received.slice(0, split), body: received.slice(split + 4) },
      );
    });
    socket.on('error', () => finish(null));
  });
}
