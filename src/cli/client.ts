import { readFileSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { AnswerOf, CallPart, Contract, In, OptionalWhenEmpty } from '../contracts/define';
import { CLIENT_HEADER, type ClientSource } from '../shared/client-header';
import { DEFAULT_PORT } from '../shared/config';
import { environmentOf, type ProcessVars } from '../shared/environment';
import { dataRootOf } from './data-root';

/** The service's error envelope as the CLI and MCP pass it on; a local failure has no request id. */
export interface CallErrorEnvelope {
  error: { code: string; message: string; details: Record<string, unknown> };
  request_id?: string;
}

/** An error answer of the service (status 0: a failure before or instead of an answer), with its envelope's code, message and details. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly requestId?: string,
  ) {
    super(message);
  }

  get envelope(): CallErrorEnvelope {
    return {
      error: { code: this.code, message: this.message, details: this.details },
      ...(this.requestId ? { request_id: this.requestId } : {}),
    };
  }
}

/** An error answer's envelope, or null when the answer is not LPA's JSON. */
function envelopeOf(text: string): Partial<CallErrorEnvelope> | null {
  try {
    return JSON.parse(text) as Partial<CallErrorEnvelope>;
  } catch {
    return null;
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

/** A call's input as it goes on the wire. */
export interface RequestInput {
  params?: Record<string, unknown>;
  query?: Query;
  body?: unknown;
}

/*
 * A call's input is typed by its contract's schemas as the wire carries it. The CLI passes on what a
 * person typed and the service validates it (its refusal names the field), so the types check the
 * names of the parts and fields and the kind of each value, not what only the service can judge:
 * where a schema takes some strings, any string; a body field may be left out.
 */
/** Path parameters are text; every one is needed to build the path. */
type WireParams<T> = { [K in keyof T]-?: string };
/** Query values are text: a field takes the text, or the number or boolean it spells. */
type WireQuery<T> = { [K in keyof T]: string | number | boolean };
/** A body with its field names and value kinds; any text where the schema takes some strings, any field left out. */
type WireBody<T> = T extends string
  ? string
  : T extends readonly (infer E)[]
    ? WireBody<E>[]
    : T extends object
      ? { [K in keyof T]?: WireBody<T[K]> }
      : T;

/** What a call of contract C sends: its path parameters, query and body. */
export type CallInput<C> =
  C extends Contract<infer P, infer Q, infer B>
    ? CallPart<'params', P, WireParams<In<P>>> &
        CallPart<'query', Q, WireQuery<In<Q>>> &
        CallPart<'body', B, WireBody<In<B>>>
    : never;

/**
 * The service as the CLI and the MCP server talk to it: LPA_URL and LPA_TOKEN, the admin-token file
 * by default. `source` is what the audit log records as the source of every request.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly source: ClientSource = 'cli',
    /** Sent with every request: a team's Access service-token headers (./team-client.ts). */
    private readonly headers: Record<string, string> = {},
  ) {}

  /**
   * The client of the environment. Without LPA_TOKEN the admin-token file is used when `adminFallback`
   * allows it (the CLI, run by the person who owns the data root); otherwise no token is a refusal,
   * so that a program acting for someone else (the MCP server) never takes the admin token unasked.
   */
  static fromEnv(vars: ProcessVars, source: ClientSource = 'cli', { adminFallback = true } = {}): ApiClient {
    const env = environmentOf(vars);
    const baseUrl = (env.LPA_URL || `http://127.0.0.1:${env.LPA_PORT || DEFAULT_PORT}`).replace(/\/+$/, '');
    let token = env.LPA_TOKEN;
    if (!token) {
      if (!adminFallback)
        throw new ApiCallError(
          0,
          'cli.token_missing',
          'no token: set LPA_TOKEN to a token with the scopes the agent needs, or pass --admin to use the admin token',
        );
      const file = join(dataRootOf(vars), 'admin-token');
      try {
        token = readFileSync(file, 'utf8').trim();
      } catch {
        throw new ApiCallError(
          0,
          'cli.token_missing',
          `no token: set LPA_TOKEN, or start the service once so that ${file} exists`,
        );
      }
    }
    return new ApiClient(baseUrl, token, source);
  }

  /** Calls the route of a contract with its typed input; the answer is typed by the contract's response schema. */
  async api<C extends Contract>(contract: C, ...[input]: OptionalWhenEmpty<CallInput<C>>): Promise<AnswerOf<C>> {
    return (await this.request(contract, (input ?? {}) as RequestInput)) as AnswerOf<C>;
  }

  /**
   * Calls a route with input known only at run time (the MCP server's tool arguments); the service
   * validates it. An error answer becomes an ApiCallError carrying its code.
   */
  async request(contract: Contract, input: RequestInput = {}): Promise<unknown> {
    const text = await this.read(await this.send(contract, input));
    return text ? JSON.parse(text) : undefined;
  }

  /** Calls a route and reads its body in chunks, reporting the bytes received so far. */
  async download<C extends Contract>(
    contract: C,
    input: CallInput<C>,
    onProgress: (received: number, total: number | null) => void,
  ): Promise<AnswerOf<C>> {
    const response = await this.send(contract, input as RequestInput);
    const total = Number(response.headers['content-length']) || null;
    let received = 0;
    const text = await this.read(response, (chunk) => onProgress((received += chunk.byteLength), total));
    return JSON.parse(text) as AnswerOf<C>;
  }

  /** The URL of a call: the contract's path with each `:name` filled in (encoded), then the query. */
  url(contract: Contract, { params = {}, query = {} }: RequestInput = {}): string {
    const path = contract.path.replace(/:(\w+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined)
        throw new ApiCallError(0, 'cli.argument_missing', `${contract.method} ${contract.path}: no value for :${name}`);
      return encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const text = search.toString();
    return `${this.baseUrl}${path}${text ? `?${text}` : ''}`;
  }

  /**
   * One exchange over node:http, not fetch: fetch's idle keep-alive socket holds the process open
   * for a while after the answer (about 0.2 s added to every command), where node:http's agent
   * releases a free socket at once.
   */
  private async send(contract: Contract, options: RequestInput): Promise<IncomingMessage> {
    const url = new URL(this.url(contract, options));
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: OutgoingHttpHeaders = {
      ...this.headers,
      authorization: `Bearer ${this.token}`,
      [CLIENT_HEADER]: this.source,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
    };
    let response: IncomingMessage;
    try {
      const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
      response = await new Promise<IncomingMessage>((resolve, reject) => {
        request(url, { method: contract.method, headers }, resolve).once('error', reject).end(body);
      });
    } catch (error) {
      throw new ApiCallError(0, 'cli.unreachable', `cannot reach ${this.baseUrl}: ${(error as Error).message}`);
    }
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const envelope = envelopeOf(await this.read(response));
      const { code = 'cli.unexpected_answer', message = `HTTP ${status}`, details = {} } = envelope?.error ?? {};
      throw new ApiCallError(status, code, message, details, envelope?.request_id);
    }
    return response;
  }

  /** An answer's body as text; a connection cut before its end is the service becoming unreachable. */
  private async read(response: IncomingMessage, onChunk?: (chunk: Buffer) => void): Promise<string> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        onChunk?.(chunk);
      }
    } catch (error) {
      throw new ApiCallError(
        0,
        'cli.unreachable',
        `the answer of ${this.baseUrl} was cut: ${(error as Error).message}`,
      );
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
