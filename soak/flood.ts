import { Agent, request } from 'node:http';

/**
 * The token-less flood beside the soak's own clients: `clients` loops, each from a loopback address
 * of its own (127.0.2.x), asking for `/api/v1/version` without a token, one request after another.
 * Every answer must be 401 or 429 (the throttle); anything else, or a connection error, is a failure.
 * Resolves with the requests sent and the failures.
 */
export async function flood(
  port: number,
  clients: number,
  until: number,
): Promise<{ sent: number; failures: Map<string, number> }> {
  const failures = new Map<string, number>();
  let sent = 0;
  const one = (agent: Agent, localAddress: string) =>
    new Promise<string | null>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/api/v1/version', agent, localAddress, timeout: 15_000 },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve(res.statusCode === 401 || res.statusCode === 429 ? null : `status ${res.statusCode}`),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
      req.on('error', (error) => resolve(`connection error: ${error.message}`));
      req.end();
    });
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const localAddress = `127.0.2.${1 + (i % 250)}`;
      while (Date.now() < until) {
        const failure = await one(agent, localAddress);
        sent += 1;
        if (failure) failures.set(`flood: ${failure}`, (failures.get(`flood: ${failure}`) ?? 0) + 1);
      }
      agent.destroy();
    }),
  );
  return { sent, failures };
}
