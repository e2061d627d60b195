import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_PORT } from '../shared/config';
import { CLIENT_HEADER, type ClientSource } from '../shared/client-header';
import { environmentOf, type ProcessVars } from '../shared/environment';

/** An error answer of the service, with its stable code. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

/**
 * The service as the CLI and the MCP server talk to it: LPA_URL and LPA_TOKEN, the admin-token file
 * by default. `source` is what the audit log records as the source of every request.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly source: ClientSource = 'cli',
  ) {}

  static fromEnv(vars: ProcessVars, source: ClientSource = 'cli'): ApiClient {
    const env = environmentOf(vars);
    const baseUrl = (env.LPA_URL || `http://127.0.0.1:${env.LPA_PORT || DEFAULT_PORT}`).replace(/\/+$/, '');
    let token = env.LPA_TOKEN;
    if (!token) {
      const file = join(resolve(env.LPA_DATA_ROOT || './data'), 'admin-token');
      try {
        token = readFileSync(file, 'utf8').trim();
      } catch {
        throw new ApiCallError(0, 'cli.token_missing', `no token: set LPA_TOKEN, or start the service once so that ${file} exists`);
      }
    }
    return new ApiClient(baseUrl, token, source);
  }

  url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /** Calls a route; an error answer becomes an ApiCallError carrying its code. */
  async call<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const response = await this.send(method, path, options);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Calls a route and reads its body in chunks, reporting the bytes received so far. */
  async download(path: string, query: Query, onProgress: (received: number, total: number | null) => void): Promise<Buffer> {
    const response = await this.send('GET', path, { query });
    const total = Number(response.headers.get('content-length')) || null;
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(Buffer.from(chunk));
      received += chunk.byteLength;
      onProgress(received, total);
    }
    return Buffer.concat(chunks);
  }

  private async send(method: string, path: string, options: { query?: Query; body?: unknown }): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          [CLIENT_HEADER]: this.source,
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (error) {
      throw new ApiCallError(0, 'cli.unreachable', `cannot reach ${this.baseUrl}: ${(error as Error).cause ?? (error as Error).message}`);
    }
    if (!response.ok) {
      const envelope = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
      throw new ApiCallError(response.status, envelope?.error?.code ?? 'cli.unexpected_answer', envelope?.error?.message ?? `HTTP ${response.status}`);
    }
    return response;
  }
}
