/**
 * The front of `npm run start:team` over several processes (scripts/team-front.mjs): it reads the
 * operator's route and a team's path from their one declaration (src/shared/team-path.ts), in the
 * path the Worker sees, and Node loads that TypeScript as it is, without a warning.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTeamFront } from '../../scripts/team-front.mjs';
import { freePort, raw, rawExchange } from './service';
import { NODE_22, ROOT } from './team-service';

/** Two stand-ins for the workerd processes: each answers which it is, the target it was sent and the headers the front sets. */
const upstreams: Server[] = [];
const settled: [string, boolean][] = [];
let front: { close: () => Promise<void> };
let port: number;
const FRONT_KEY = 'the-run-s-front-key';

/** `beta` is placed in the second process; a creation is placed there too. */
const placement = {
  home: (teamId: string) => (teamId === 'beta' ? 1 : null),
  place: () => 1,
  settle: (teamId: string, kept: boolean) => settled.push([teamId, kept]),
};

beforeAll(async () => {
  const ports: number[] = [];
  for (const index of [0, 1]) {
    const server = createServer((request, answer) => {
      request.resume().on('end', () => {
        const text = JSON.stringify({
          process: index,
          target: request.url,
          ip: request.headers['cf-connecting-ip'],
          key: request.headers['x-lpa-front-key'],
        });
        answer.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        answer.end(text);
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
