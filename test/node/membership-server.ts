/// <reference path="../support/provided.d.ts" />
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * A real membership server for the tests, on 127.0.0.1 and a free port. It serves
 * `GET /v1/account/status`, also under any path prefix (so that a test can give its service a URL,
 * and so a cache, of its own), as LPA's exchange expects. Tests steer it with `POST /control`:
 * `{answer: {status, body}}` to answer that, `{down: true}` to drop every connection as an
 * unreachable server would, or `{hang: true}` to accept requests and never answer them (until the
 * next steer, which lets them go). `GET /control` reports how many status requests it has seen and
 * how many it is holding unanswered.
 */
export default async function startMembershipServer(project: TestProject) {
  const signedOut = { authenticated: false, verifiedUntil: 0, validForMs: 0, account: null, error: null };
  let mode: { down: true } | { hang: true } | { answer: { status: number; body: unknown } } = {
    answer: { status: 200, body: signedOut },
  };
  let statusRequests = 0;
  const held = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    if (req.url === '/control' && req.method === 'POST') {
      mode = JSON.parse(await text(req));
      for (const waiting of held) waiting.socket?.destroy();
      held.clear();
      res.writeHead(204).end();
    } else if (req.url === '/control' && req.method === 'GET') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ statusRequests, held: held.size }));
    } else if (req.url?.endsWith('/v1/account/status') && req.method === 'GET') {
      statusRequests += 1;
      if ('down' in mode) {
        req.socket.destroy();
        return;
      }
      if ('hang' in mode) {
        held.add(res);
        // A client that gives up (LPA's timeout) closes the connection: then it is no longer held.
        res.on('close', () => held.delete(res));
        return;
      }
      res.writeHead(mode.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(mode.answer.body));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('membershipUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

async function text(req: IncomingMessage): Promise<string> {
  let out = '';
  for await (const chunk of req) out += chunk;
  return out;
}
