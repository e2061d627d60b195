import { createServer } from 'node:net';
import { LaunchError } from './launch-error';

/** A listening socket on 127.0.0.1, bound by the launcher and handed to workerd by its descriptor. */
export interface LoopbackSocket {
  port: number;
  /** The descriptor workerd listens on (`--socket-fd`). */
  fd: number;
  /** Closes the launcher's copy; workerd's copy goes on listening. */
  close(): void;
}

/**
 * The launcher binds workerd's port itself and passes the bound socket down: a port merely found free
 * and bound later by workerd could be taken in between by another process (then workerd exits with
 * "Address already in use"). Until workerd has the socket, a connection the launcher accepts on it is
 * closed at once, as a refused one would be.
 */
export function loopbackSocket(): Promise<LoopbackSocket> {
  return new Promise((resolve, reject) => {
    const server = createServer((early) => early.destroy())
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        // Node and Bun name no public way to the descriptor of a listening server; `_handle.fd` is it on both.
        const fd = (server as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
        if (typeof fd !== 'number' || fd < 0) {
          server.close();
          reject(new LaunchError('the launcher could not hand its listening socket to workerd'));
          return;
        }
        resolve({ port, fd, close: () => server.close() });
      });
  });
}
