import { Agent as HttpsAgent } from 'node:https';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Server } from 'proxy-chain';
import type { ProxyCheck, ProxyErrorCode, ProxyUpstream } from '../../../shared/schemas/proxy';
import { loadWhenUsed } from '../load-when-used';

/** proxy-chain's answer to a tunnel whose upstream refused the credentials (its `badGatewayStatusCodes.AUTH_FAILED`). */
const UPSTREAM_AUTH_FAILED = 597;

/** A host as a socket takes it: an IPv6 address without its brackets. */
const bare = (host: string) => host.replace(/^\[|\]$/g, '');

/**
 * The scheme proxy-chain takes for each type. SOCKS goes as `socks5h` and `socks4a`, the forms in which
 * the proxy resolves the site's name: with `socks5` and `socks4` proxy-chain resolves it itself (for
 * plain http), a DNS query from this machine that would tell the site it is visited.
 */
const SCHEMES: Record<ProxyUpstream['type'], string> = {
  http: 'http',
  https: 'https',
  socks4: 'socks4a',
  socks5: 'socks5h',
};

/** The upstream as proxy-chain takes it: `scheme://user:password@host:port`, each credential percent-encoded. */
function upstreamUrl(proxy: ProxyUpstream): string {
  const user = proxy.username === null ? '' : encodeURIComponent(proxy.username);
  const auth = proxy.password === null ? user : `${user}:${encodeURIComponent(proxy.password)}`;
  return `${SCHEMES[proxy.type]}://${auth ? `${auth}@` : ''}${proxy.host}:${proxy.port}`;
}

/** Why a proxy failed, with what the error says (never its credentials). */
export interface ProxyFailure {
  code: ProxyErrorCode;
  error: string;
}

/**
 * A profile's local forwarding proxy: an anonymous HTTP proxy on 127.0.0.1 that proxy-chain runs for
 * one run (or one check), carrying every request to the profile's upstream (http, https, socks4 or
 * socks5) with its credentials. Chromium takes no credentials in `--proxy-server` and no
 * authenticated SOCKS at all; pointed at this one, every tab, popup, worker and service worker of
 * the browser goes through the upstream with them.
 */
export class LocalProxy {
  private constructor(
    private readonly server: Server,
    readonly upstream: ProxyUpstream,
  ) {}

  static async open(upstream: ProxyUpstream): Promise<LocalProxy> {
    const url = upstreamUrl(upstream);
    // A connection of its own per plain-HTTP request to an https upstream, never one kept alive from
    // the process-wide agent: under Deno a reused TLS socket to the upstream now and then took a
    // request and never answered it (test/node/proxies.test.ts, about 1 run in 3).
    const httpsAgent = upstream.type === 'https' ? new HttpsAgent({ keepAlive: false }) : undefined;
    const { Server } = loadWhenUsed('proxy-chain') as typeof import('proxy-chain');
    const server = new Server({
      host: '127.0.0.1',
      port: 0,
      prepareRequestFunction: () => ({ requestAuthentication: false, upstreamProxyUrl: url, httpsAgent }),
    });
    await server.listen();
    return new LocalProxy(server, upstream);
  }

  /** `http://127.0.0.1:<port>`: what the browser's `--proxy-server` names. */
  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Closes it and every connection through it. */
  async close(): Promise<void> {
    await this.server.close(true);
  }

  /**
   * Whether the upstream takes its credentials, before a browser is pointed at it: a tunnel through it
   * to its own address. A proxy asks for its credentials before it connects anywhere, so a refusal
   * tells `proxy.auth_failed` from an unreachable proxy, and no site learns of the probe. Anything
   * else the upstream answers (its own address refused as a destination, say) still means it took
   * the credentials. Null when it did.
   */
  async probe(timeoutMs: number): Promise<ProxyFailure | null> {
    const tunnel = await this.tunnel(bare(this.upstream.host), this.upstream.port, timeoutMs);
    if ('socket' in tunnel) {
      tunnel.socket.destroy();
      return null;
    }
    const failure = await this.failureOf(tunnel, timeoutMs);
    return failure.code === 'proxy.check_failed' ? null : failure;
  }

  /**
   * Fetches `url` through this proxy as the browser would: a tunnel through the upstream to the site
   * (TLS inside it for https), a GET, and the head of the answer. `ok` when the site answered, with
   * whatever status it answered.
   */
  async check(url: string, timeoutMs: number): Promise<ProxyCheck & { error: string | null }> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const host = bare(target.hostname);
    const tunnel = await this.tunnel(host, Number(target.port) || (secure ? 443 : 80), timeoutMs);
    if (!('socket' in tunnel)) {
      const failure = await this.failureOf(tunnel, timeoutMs);
      return { ok: false, status: null, latency_ms: latency(), error_code: failure.code, error: failure.error };
    }
    const socket = secure
      ? tls.connect({
          socket: tunnel.socket,
          servername: net.isIP(host) ? undefined : host,
          ALPNProtocols: ['http/1.1'],
        })
      : tunnel.socket;
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(target, { method: 'GET', createConnection: () => socket, timeout: timeoutMs });
        request.once('response', (response) => {
          resolve(response.statusCode ?? 0);
          response.destroy();
        });
        request.once('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        request.once('error', reject);
        request.end();
      });
      return { ok: true, status, latency_ms: latency(), error_code: null, error: null };
    } catch (error) {
      const message = (error as Error).message;
      return { ok: false, status: null, latency_ms: latency(), error_code: 'proxy.check_failed', error: message };
    } finally {
      socket.destroy();
    }
  }

  /** A CONNECT through this proxy to `host:port`: the open socket, or what the proxy answered instead. */
  private tunnel(
    host: string,
    port: number,
    timeoutMs: number,
  ): Promise<{ socket: net.Socket } | { status: number | null; error: string }> {
    return new Promise((resolve) => {
      const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
      const request = http.request({
        host: '127.0.0.1',
        port: this.server.port,
        method: 'CONNECT',
        path: authority,
        headers: { host: authority },
        timeout: timeoutMs,
      });
      request.once('connect', (response, socket) => {
        if (response.statusCode === 200) resolve({ socket });
        else {
          socket.destroy();
          resolve({ status: response.statusCode ?? null, error: response.statusMessage ?? '' });
        }
      });
      request.once('timeout', () => request.destroy(new Error(`the proxy did not answer within ${timeoutMs} ms`)));
      request.once('error', (error) => resolve({ status: null, error: error.message }));
      request.end();
    });
  }

  /**
   * What a refused tunnel means: the upstream refused the credentials (proxy-chain's 597); the upstream
   * cannot be reached at all (a TCP connection to it fails); or it can, and only the destination failed.
   */
  private async failureOf(tunnel: { status: number | null; error: string }, timeoutMs: number): Promise<ProxyFailure> {
    if (tunnel.status === UPSTREAM_AUTH_FAILED) return { code: 'proxy.auth_failed', error: tunnel.error };
    const reached = await new Promise<string | null>((resolve) => {
      const socket = net.connect({ host: bare(this.upstream.host), port: this.upstream.port });
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no connection within ${timeoutMs} ms`)));
      socket.once('connect', () => {
        socket.destroy();
        resolve(null);
      });
      socket.once('error', (error) => resolve(error.message));
    });
    if (reached !== null) return { code: 'proxy.unreachable', error: reached };
    const answer = tunnel.status === null ? tunnel.error : `${tunnel.status} ${tunnel.error}`.trim();
    return { code: 'proxy.check_failed', error: answer };
  }
}
