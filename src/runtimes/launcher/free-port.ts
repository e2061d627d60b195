import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 free right now, for workerd to bind next. Should another process take it
 * first, workerd cannot bind, exits, and the launcher stops: nothing is served on a port not its own.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
  });
}
