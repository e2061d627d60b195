import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AuditSigner } from '../../storage/audit/signing';

/** One team's chain as the fake team keeps it: the hash at each seq (index seq - 1), its store id and signing key. */
export interface FakeChain {
  storeId: string;
  signer: AuditSigner;
  hashes: string[];
  /** Changes the checkpoint after it was signed (a signature that no longer covers it). */
  tamper?: (checkpoint: Record<string, unknown>) => void;
  /** Changes the public key's answer (a key id that is not the key's). */
  tamperKey?: (key: Record<string, unknown>) => void;
}

export const randomHash = (): string => randomBytes(32).toString('hex');
export const newSigner = (): AuditSigner => new AuditSigner(randomBytes(32));

/**
 * What the fake team does with one request: `undefined` answers it as a team does (`answer`); a
 * function takes the request over (a team that hangs, stalls, or answers garbage).
 */
export type Behaviour = (request: IncomingMessage, response: ServerResponse, answer: () => void) => void;

/**
 * A team service played on 127.0.0.1 by the test (docs/teams.md#audit-across-machines): every team
 * id under `/teams/<id>` has a chain of random hashes; a write (any method but GET/HEAD) appends one;
 * every answer carries `X-LPA-Team-Head`; the audit key, checkpoint and hash pages answer as the team
 * service's do. `behaviour` replaces the answer, for the edges of the link.
 */
export class FakeTeam {
  readonly teams = new Map<string, FakeChain>();
  readonly requests: string[] = [];
  behaviour: Behaviour | undefined;
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = createServer((request, response) => {
      this.requests.push(`${request.method} ${request.url}`);
      const answer = () => this.answer(request, response);
      if (this.behaviour) this.behaviour(request, response, answer);
      else answer();
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Ends every connection it holds (a hanging one too) and stops listening. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  url(teamId: string): string {
    return `http://127.0.0.1:${this.port}/teams/${teamId}`;
  }

  chain(teamId: string): FakeChain {
    let chain = this.teams.get(teamId);
    if (!chain)
      this.teams.set(teamId, (chain = { storeId: randomUUID(), signer: newSigner(), hashes: [randomHash()] }));
    return chain;
  }

  head(teamId: string): string {
    const { hashes } = this.chain(teamId);
    return `${hashes.length},${hashes[hashes.length - 1]}`;
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url!, 'http://team');
    const match = /^\/teams\/([^/]+)(\/api\/v1\/.*)$/.exec(url.pathname);
    if (!match)
      return void json(
        response,
        404,
        { error: { code: 'route.not_found', message: 'no such route', details: {} } },
        {},
      );
    const [, teamId, path] = match as unknown as [string, string, string];
    const chain = this.chain(teamId);
    request.resume();
    request.once('end', () => {
      if (request.method !== 'GET' && request.method !== 'HEAD') chain.hashes.push(randomHash());
      const headers = {
        'x-lpa-team-head': this.head(teamId),
        'x-request-id': String(request.headers['x-lpa-request-id'] ?? ''),
      };
      if (path === '/api/v1/audit/public-key') {
        const key: Record<string, unknown> = { ...chain.signer.info() };
        chain.tamperKey?.(key);
        return void json(response, 200, key, headers);
      }
      if (path === '/api/v1/audit/checkpoint') {
        const seq = chain.hashes.length;
        const signed = { hash: chain.hashes[seq - 1]!, seq, store_id: chain.storeId, ts: Date.now() };
        const checkpoint: Record<string, unknown> = {
          ...signed,
          key_id: chain.signer.keyId,
          signature: chain.signer.sign(signed),
        };
        chain.tamper?.(checkpoint);
        return void json(response, 200, checkpoint, headers);
      }
      if (path === '/api/v1/audit/hashes') {
        const after = Number(url.searchParams.get('after_seq') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 1000);
        const items = chain.hashes.map((hash, index) => ({ seq: index + 1, hash })).filter((item) => item.seq > after);
        const page = items.slice(0, limit);
        return void json(
          response,
          200,
          { items: page, next_after_seq: items.length > limit ? page[page.length - 1]!.seq : null },
          headers,
        );
      }
      json(response, 200, { items: [], next_cursor: null, total: 0, name: path }, headers);
    });
  }
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}
