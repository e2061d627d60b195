import { createServer, type IncomingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTeam } from '../../src/host/node/team-link';

/**
 * A team that compresses whenever the client accepts it, as the team service under Wrangler does:
 * the host's forward to this machine's own team (http://127.0.0.1) asks for the answer as it is, so
 * neither side spends zlib CPU on a loopback hop (docs/teams.md#a-machine-in-a-team).
 */
describe("the host's forward to a team on this machine", () => {
  const seen: IncomingHttpHeaders[] = [];
  const answer = JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `profile ${i}` })) });
  const server = createServer((request, response) => {
    seen.push(request.headers);
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    response.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    response.end(gzip ? gzipSync(answer) : answer);
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/teams/acme`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('asks for the answer uncompressed, and hands it on byte for byte', async () => {
    const team = nodeTeam({
      url,
      token: 'lpa_team_token',
      accessClientId: null,
      accessClientSecret: null,
      machineId: 'machine-0001',
    });
    const reply = await team.forward({
      method: 'GET',
      target: '/api/v1/profiles?limit=50',
      headers: { 'x-lpa-client': 'cli' },
      body: null,
    });
    expect(seen.at(-1)).toMatchObject({
      'accept-encoding': 'identity',
      authorization: 'Bearer lpa_team_token',
      'x-lpa-machine': 'machine-0001',
      'x-lpa-client': 'cli',
    });
    expect(reply).toMatchObject({ reachable: true, status: 200, headers: { 'content-type': 'application/json' } });
    expect(new TextDecoder().decode((reply as { body: Uint8Array }).body)).toBe(answer);
  });

  it('is compressed for a client that asks, as fetch does by default: what the forward no longer pays for', async () => {
    const response = await fetch(`${url}/api/v1/profiles`);
    expect(seen.at(-1)!['accept-encoding']).toMatch(/gzip/);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(answer);
  });
});
