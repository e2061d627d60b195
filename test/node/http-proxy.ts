import { type PrepareRequestFunctionResult, Server as ProxyServer, type ServerOptions } from 'proxy-chain';

/**
 * An HTTP proxy that asks for `username` and `password` (proxy-chain's own server), or an HTTPS one
 * (TLS to the proxy) with `tls`, on loopback: the upstream a test gives a profile. `connect` is how
 * it reaches the site (the address it connects from, how it resolves names); `carried` lists each
 * `host:port` it carried a request or tunnel to. `answerAfterMs` holds each answer that long: a
 * proxy slow to take or refuse the credentials.
 */
export async function httpProxy({
  username,
  password,
  tls,
  connect = {},
  answerAfterMs = 0,
}: {
  username: string;
  password: string;
  tls?: { key: string; cert: string };
  connect?: Pick<PrepareRequestFunctionResult, 'localAddress' | 'dnsLookup'>;
  answerAfterMs?: number;
}): Promise<{ server: ProxyServer; port: number; carried: string[] }> {
  const carried: string[] = [];
  const listen = { host: '127.0.0.1', port: 0 };
  const options: ServerOptions = tls ? { ...listen, serverType: 'https', httpsOptions: tls } : listen;
  const server = new ProxyServer({
    ...options,
    prepareRequestFunction: async (request) => {
      if (answerAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
      if (request.username !== username || request.password !== password) return { requestAuthentication: true };
      carried.push(`${request.hostname}:${request.port}`);
      return connect;
    },
  });
  await server.listen();
  return { server, port: server.port, carried };
}
