/**
 * `npm run start:team` with the teams' objects spread over several workerd processes behind its
 * front (scripts/team-front.mjs, scripts/team-placement.mjs; docs/teams.md#run-it-locally): where
 * each team goes and stays, what a client cannot choose, and a data root that keeps its layout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../../src/pipeline/throttle';
import { floodCreations } from './creation-flood';
import { commandLine, listeningPorts, processTree } from './process-tree';
import { raw } from './service';
import {
  adminTeamToken,
  createTeam,
  NODE_22,
  openToOthers,
  ROOT,
  startTeamService,
  teamOk,
  teamRequest,
  type RunningTeamService,
} from './team-service';

/** A start bundles the Worker first: far more than the project's 30 s on a loaded machine. */
const START_MS = 120_000;
const TEAMS = ['spread-a', 'spread-b', 'spread-c', 'spread-d'];
const owner = (teamId: string) => `owner@${teamId}.example`;
const placement = (service: RunningTeamService) =>
  JSON.parse(readFileSync(join(service.dataRoot, 'placement.json'), 'utf8'));

/** start-team.mjs run to its first refusal (it checks its settings before it bundles anything). */
function refusal(dataRoot: string, processes: string): { status: number | null; stderr: string } {
  const run = spawnSync(NODE_22, ['scripts/start-team.mjs'], {
    cwd: ROOT,
    env: { ...process.env, LPA_TEAM_DATA_ROOT: dataRoot, LPA_TEAM_PROCESSES: processes, LPA_TEAM_PORT: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}

describe('npm run start:team over two workerd processes', () => {
  let service: RunningTeamService;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    service = await startTeamService(undefined, { env: { LPA_TEAM_PROCESSES: '2' } });
    for (const teamId of TEAMS) {
      expect((await createTeam(service, teamId, owner(teamId))).status).toBe(201);
      tokens.set(teamId, (await adminTeamToken(service, teamId, owner(teamId))).token);
    }
  }, START_MS);
  afterAll(async () => {
    await service?.stop();
  }, START_MS);

  it('places each team it creates in the process with the fewest teams, and says so in the data root', () => {
    expect(placement(service)).toEqual({
      processes: 2,
      teams: { 'spread-a': 0, 'spread-b': 1, 'spread-c': 0, 'spread-d': 1 },
    });
    expect(service.output()).toContain('"processes":2');
    expect(existsSync(join(service.dataRoot, 'state-1'))).toBe(true);
  });

  it('refuses a second creation of a team, wherever it is placed, and places nothing for a refused one', async () => {
    const twice = await Promise.all([
      createTeam(service, 'spread-e', owner('spread-e')),
      createTeam(service, 'spread-e', owner('spread-e')),
    ]);
    expect(twice.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await createTeam(service, 'spread-b', owner('spread-b'))).json.error.code).toBe('team.exists');
    const unauthorised = await teamRequest(service, '/v1/teams', {
      method: 'POST',
      token: 'lpa_op_wrong',
      body: { team_id: 'spread-x', owner: owner('spread-x') },
    });
    expect(unauthorised.status).toBe(401);
    expect(placement(service).teams).not.toHaveProperty('spread-x');
    expect(placement(service).teams['spread-e']).toBe(0);
  });

  it(
    "keeps each team's data to itself across the processes, and finds all of it after a restart",
    async () => {
      const profiles = new Map<string, string>();
      for (const teamId of TEAMS) {
        const profile = await teamOk<{ id: string }>(service, `/teams/${teamId}/api/v1/profiles`, {
          method: 'POST',
          token: tokens.get(teamId)!,
          body: { name: `of ${teamId}` },
        });
        profiles.set(teamId, profile.id);
      }
      const { dataRoot, port } = service;
      await service.stop();
      service = await startTeamService(dataRoot, { port });
      for (const teamId of TEAMS) {
        const token = tokens.get(teamId)!;
        expect(
          (await teamOk(service, `/teams/${teamId}/api/v1/profiles/${profiles.get(teamId)}`, { token })).name,
        ).toBe(`of ${teamId}`);
        expect((await teamOk<{ ok: boolean }>(service, `/teams/${teamId}/api/v1/audit/verify`, { token })).ok).toBe(
          true,
        );
        // Another team's token is no token here, whichever process the other team is in.
        const other = TEAMS.find(
          (t) => t !== teamId && placement(service).teams[t] !== placement(service).teams[teamId],
        )!;
        expect(
          (await teamRequest(service, `/teams/${teamId}/api/v1/profiles`, { token: tokens.get(other)! })).status,
        ).toBe(401);
      }
      // A team no process has: the first process answers it as a team that knows no one.
      expect(
        (await teamRequest(service, '/teams/never-made/api/v1/profiles', { token: tokens.get('spread-a')! })).json.error
          .code,
      ).toBe('auth.token_invalid');
    },
    START_MS,
  );

  it('gives the Worker the address the client connected from as CF-Connecting-IP, never the one a client sends', async () => {
    const answer = await raw(service.port, '/teams/spread-b/api/v1/profiles', {
      headers: { authorization: `Bearer ${tokens.get('spread-b')}`, 'cf-connecting-ip': '203.0.113.7' },
      localAddress: '127.0.0.2',
    });
    expect(answer.status).toBe(200);
    // The api log's lines are written in batches, half a second after the first (src/pipeline/api-log-buffer.ts).
    const logged = () =>
      service
        .output()
        .split('\n')
        .find((l) => l.includes(answer.headers['x-request-id'] as string) && l.includes('"stream":"api"'));
    await expect.poll(logged, { timeout: 5_000 }).toBeDefined();
    expect(JSON.parse(logged()!).fields.ip).toBe('127.0.0.2');
  });

  it("believes CF-Connecting-IP only from the front: a guesser on a process's own port is one client, however it names itself", async () => {
    const workerds = processTree(service.process.pid!).filter(
      (pid) => basename(commandLine(pid)[0] ?? '') === 'workerd',
    );
    expect(workerds).toHaveLength(2);
    // Each process's own ports on 127.0.0.1: Miniflare's entry and the socket the front sends to.
    const ports = listeningPorts(workerds).filter((p) => p !== service.port);
    expect(ports.length).toBeGreaterThanOrEqual(2);
    for (const port of ports) {
      const statuses: number[] = [];
      for (let i = 1; i <= 30; i++) {
        const answer = await raw(port, '/v1/teams', {
          method: 'POST',
          headers: {
            host: `127.0.0.1:${service.port}`,
            authorization: `Bearer lpa_op_guess-${i}`,
            'cf-connecting-ip': `198.51.100.${i}`,
          },
        });
        statuses.push(answer.status);
      }
      // One budget of failures (per process: each simulates its own limiter), spent by the first port tried.
      expect(statuses.filter((status) => status === 401).length, `port ${port}`).toBeLessThanOrEqual(MAX_FAILURES);
      expect(statuses, `port ${port}`).toContain(429);
    }
  });

  it('keeps nothing of 200 creations without a token whose answer never came, and answers another client meanwhile', async () => {
    const file = join(service.dataRoot, 'placement.json');
    // Said in numbers: a failure prints them, not megabytes of made-up ids.
    const kept = () => ({
      bytes: statSync(file).size,
      teams: Object.keys(placement(service).teams).length,
      modified: statSync(file).mtimeMs,
    });
    const before = kept();
    // As #34's review sent them: made-up ids, half of them valid, half 60,000 characters long.
    const ids = Array.from({ length: 200 }, (_, i) => (i % 2 ? `probe-${i}` : `${'x'.repeat(60_000)}${i}`));
    const report = await floodCreations(service.port, ids);
    console.log(`#34 finding 1, the probe: ${JSON.stringify(report)}`);
    expect(kept()).toEqual(before);
    // Not a speed target (those are in npm run bench): a bound that tells "answered meanwhile" from
    // "held up behind the flood", which before the fix was 3.4 s for 120 such creations. It leaves
    // room for a machine busy with other test files, where a p99 of 915 ms has been seen.
    expect(report.status.p99).toBeLessThan(2_000);
  }, 60_000);

  it('passes on a request head as large as workerd takes on its own', async () => {
    const answer = await raw(service.port, '/teams/spread-a/api/v1/profiles', {
      headers: { authorization: `Bearer ${tokens.get('spread-a')}`, 'x-large': 'a'.repeat(100_000) },
    });
    expect(answer.status).toBe(200);
  });

  it('answers a creation whose body never ends as the Worker does (408), not by waiting for ever', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/teams HTTP/1.1\r\nhost: 127.0.0.1:${service.port}\r\nauthorization: Bearer ${service.operatorToken}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"team_id":`,
        );
      });
      let text = '';
      socket
        .on('data', (chunk) => (text += chunk.toString('utf8')))
        .on('end', () => resolve(text))
        .on('error', reject);
      setTimeout(() => resolve(text), 40_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('request.body_timeout');
  }, 60_000);

  it(
    'keeps the number of processes its data root was made with',
    async () => {
      await service.stop();
      const refused = refusal(service.dataRoot, '3');
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(
        /keeps its teams in 2 workerd process\(es\); LPA_TEAM_PROCESSES=3 would not find them/,
      );
      expect(refusal(service.dataRoot, '0').stderr).toMatch(/LPA_TEAM_PROCESSES must be a whole number from 1 to 16/);
      // A placement that cannot be read stops the start: without it no team would be found.
      const broken = mkdtempSync(join(tmpdir(), 'lpa-team-broken-'));
      writeFileSync(join(broken, 'placement.json'), '{"processes":');
      expect(refusal(broken, '2')).toMatchObject({
        status: 2,
        stderr: expect.stringMatching(/placement\.json cannot be read/),
      });
    },
    START_MS,
  );
});

describe('npm run start:team on one workerd process', () => {
  it(
    'serves without a front, and a data root made so keeps one process',
    async () => {
      const dataRoot = join(mkdtempSync(join(tmpdir(), 'lpa-team-one-')), 'data');
      let service = await startTeamService(dataRoot, { env: { LPA_TEAM_PROCESSES: '1' } });
      try {
        expect((await createTeam(service, 'single', owner('single'))).status).toBe(201);
        expect(existsSync(join(dataRoot, 'placement.json'))).toBe(false);
        // The data root it made, and all it wrote there, is its user's alone.
        expect(openToOthers(dataRoot)).toEqual([]);
        await service.stop();
        // As a data root written before there was a choice: its state and no placement.
        service = await startTeamService(dataRoot);
        expect(service.output()).toMatch(/"processes":1[,}][\s\S]*"processes":1[,}]/);
        expect((await createTeam(service, 'single', owner('single'))).json.error.code).toBe('team.exists');
      } finally {
        await service.stop();
      }
    },
    2 * START_MS,
  );
});
