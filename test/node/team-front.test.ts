/**
 * The front of `npm run start:team` over several processes (scripts/team-front.mjs): it reads the
 * operator's route and a team's path from their one declaration (src/shared/team-path.ts), in the
 * path the Worker sees, and Node loads that TypeScript as it is, without a warning.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTeamFront } from '../../scripts/team-front.mjs';
import { freePort, raw, rawExchange } from './service';
import { NODE_22, ROOT } from './team-service';

/**
 * Two stand-ins for the workerd processes: each answers which it is, the target it was sent and the
 * headers the front sets, once the body has ended; with the status a JSON body asks for (201 by
 * default), after the delay it asks for.
 */
const upstreams: Server[] = [];
const settled: [string, boolean][] = [];
let front: { close: () => Promise<void> };
let port: number;
const FRONT_KEY = 'the-run-s-front-key';

/** `beta` is placed in the second process; a creation is placed there too, but for `unplaceable`'s (a placement that is full). */
const placement = {
  home: (teamId: string) => (teamId === 'beta' ? 1 : null),
  place: (teamId: string) => (teamId === 'unplaceable' ? null : 1),
  settle: (teamId: string, created: boolean) => settled.push([teamId, created]),
};

/** What a body asks the stand-ins for. */
function asked(body: string): { status: number; delay_ms: number } {
  try {
    return { status: 201, delay_ms: 0, ...JSON.parse(body) };
  } catch {
    return { status: 201, delay_ms: 0 };
  }
}

beforeAll(async () => {
  const ports: number[] = [];
  for (const index of [0, 1]) {
    const server = createServer((request, answer) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const text = JSON.stringify({
          process: index,
          target: request.url,
          ip: request.headers['cf-connecting-ip'],
          key: request.headers['x-lpa-front-key'],
        });
        const { status, delay_ms } = asked(body);
        setTimeout(() => {
          answer.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
          answer.end(text);
        }, delay_ms);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    upstreams.push(server);
    ports.push((server.address() as { port: number }).port);
  }
  port = await freePort();
  front = await openTeamFront({ port, upstreams: ports, placement, frontKey: FRONT_KEY });
});

afterAll(async () => {
  await front?.close();
  for (const server of upstreams) await new Promise((resolve) => server.close(resolve));
});

const processOf = async (target: string, method = 'GET', body?: string) =>
  (await raw(port, target, { method, body })).json.process;

describe('the front of several workerd processes', () => {
  it("sends a team's API requests to the team's process, read in the path the Worker sees", async () => {
    expect(await processOf('/teams/beta/api/v1/profiles')).toBe(1);
    expect(await processOf('/teams/beta/api/v1/profiles?limit=5')).toBe(1);
    expect(await processOf('/teams/beta/./api/v1/profiles')).toBe(1);
    expect(await processOf('/teams/alpha/../beta/api/v1/profiles')).toBe(1);
    // An absolute-form target: the Worker's request URL is that one.
    const absolute = await rawExchange(
      port,
      `GET http://127.0.0.1:${port}/teams/beta/api/v1/version HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute.json).toMatchObject({ process: 1 });
    // The target goes on as the client wrote it: the Worker reads it itself.
    expect((await raw(port, '/teams/beta/./api/v1/profiles')).json.target).toBe('/teams/beta/./api/v1/profiles');
  });

  it('sends the address the client connected from and its own key, whatever the client sent as either', async () => {
    const answer = await raw(port, '/teams/beta/api/v1/profiles', {
      headers: { 'cf-connecting-ip': '203.0.113.7', 'x-lpa-front-key': 'guessed' },
      localAddress: '127.0.0.3',
    });
    expect(answer.json).toMatchObject({ ip: '127.0.0.3', key: FRONT_KEY });
  });

  it('sends everything else to the first process, which answers it as a single one would', async () => {
    for (const target of [
      '/status',
      '/teams/beta',
      '/teams/beta/other',
      '/teams/beta/api/v2',
      '/teams/nobody/api/v1/profiles',
      '/teams//api/v1/profiles',
      '/teams/be%74a/api/v1/profiles',
    ])
      expect(await processOf(target), target).toBe(0);
  });

  it("places the operator's creation, its route read as the Worker reads it", async () => {
    const body = JSON.stringify({ team_id: 'gamma', owner: 'o@gamma.example' });
    expect(await processOf('/v1/teams', 'POST', body)).toBe(1);
    expect(await processOf('/v1/teams?from=test', 'POST', body)).toBe(1);
    expect(settled).toEqual([
      ['gamma', true],
      ['gamma', true],
    ]);
    // Another method is no creation: the first process answers it (404 route.not_found).
    expect(await processOf('/v1/teams', 'PUT', body)).toBe(0);
  });

  it('places a team the Worker says is there (201, 409), and nothing for any other answer', async () => {
    settled.length = 0;
    for (const status of [201, 409, 400, 401, 429, 500, 503]) {
      const body = JSON.stringify({ team_id: `answered-${status}`, owner: 'o@x.example', status });
      expect(await processOf('/v1/teams', 'POST', body)).toBe(1);
    }
    expect(settled.filter(([, created]) => created).map(([teamId]) => teamId)).toEqual([
      'answered-201',
      'answered-409',
    ]);
    expect(settled).toHaveLength(7);
  });

  it('places nothing for a creation cut off before its body ended, and sends one that cannot be placed to the first process', async () => {
    settled.length = 0;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        const body = JSON.stringify({ team_id: 'cut-off', owner: 'o@x.example' });
        socket.write(
          `POST /v1/teams HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${10 * body.length}\r\n\r\n${body}`,
        );
        // The front routes what arrived after its wait for the rest (5 s); the client goes away first.
        setTimeout(() => socket.resetAndDestroy(), 5_500);
      });
      socket.on('error', () => {}).on('close', () => resolve());
    });
    await expect.poll(() => settled).toEqual([['cut-off', false]]);
    const body = JSON.stringify({ team_id: 'unplaceable', owner: 'o@x.example' });
    expect(await processOf('/v1/teams', 'POST', body)).toBe(0);
    expect(settled).toEqual([['cut-off', false]]);
  }, 15_000);

  it('waits for the answer to a creation sent whole even when its client has gone, and places the team it made', async () => {
    settled.length = 0;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        const body = JSON.stringify({ team_id: 'client-gone', owner: 'o@x.example', delay_ms: 300 });
        socket.write(
          `POST /v1/teams HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
          () => setTimeout(() => socket.resetAndDestroy(), 50),
        );
      });
      socket.on('error', () => {}).on('close', () => resolve());
    });
    expect(settled).toEqual([]);
    await expect.poll(() => settled).toEqual([['client-gone', true]]);
  });

  it('is loaded by the pinned Node as it is, TypeScript declaration included, without a warning', () => {
    const run = spawnSync(
      NODE_22,
      [
        '--input-type=module',
        '-e',
        "const m = await import('./scripts/team-front.mjs'); console.log(typeof m.openTeamFront);",
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: 'function\n',
      stderr: '',
    });
  });
});
