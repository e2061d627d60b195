import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from './service';
import {
  adminTeamToken,
  createTeam,
  openToOthers,
  startTeamService,
  teamOk,
  type RunningTeamService,
} from './team-service';

/** A start bundles the Worker first: far more than the project's 30 s on a loaded machine. */
const START_MS = 120_000;
const TEAM = 'restart-team';
const OWNER = 'owner@restart.example';

describe('npm run start:team, as run on this machine', () => {
  let service: RunningTeamService;

  beforeAll(async () => {
    service = await startTeamService();
  }, START_MS);
  afterAll(async () => {
    await service?.stop();
  }, START_MS);

  it('keeps its secrets in files only its user can read and never prints them', () => {
    for (const file of ['operator-token', 'key-wrap.key', 'access-dev-key.json']) {
      expect((statSync(join(service.dataRoot, file)).mode & 0o777).toString(8), file).toBe('600');
    }
    const output = service.output();
    expect(output).toContain('"service":"lpa-team"');
    expect(output).not.toContain(service.operatorToken);
    expect(output).not.toContain(readSecret(service, 'key-wrap.key'));
  });

  it('answers 421 to a Host that is not allowed, at the front and under a team', async () => {
    for (const path of ['/status', `/teams/${TEAM}/api/v1/profiles`, '/v1/teams']) {
      const answer = await raw(service.port, path, { headers: { host: 'lpa.attacker.example' } });
      expect(answer.status, path).toBe(421);
      expect(answer.json.error.code).toBe('request.host_forbidden');
    }
  });

  it(
    'finds a team, its token, profile, global and audit chain intact after a restart',
    async () => {
      expect((await createTeam(service, TEAM, OWNER)).status).toBe(201);
      const { token } = await adminTeamToken(service, TEAM, OWNER);
      const api = `/teams/${TEAM}/api/v1`;
      const profile = await teamOk<{ id: string; name: string }>(service, `${api}/profiles`, {
        method: 'POST',
        token,
        body: { name: 'kept across restarts' },
      });
      await teamOk(service, `${api}/automation/globals/kept`, {
        method: 'PUT',
        token,
        body: { value: 'still here', expected_revision: 0 },
      });

      const { dataRoot, port } = service;
      await service.stop();
      service = await startTeamService(dataRoot, { port });

      const again = await createTeam(service, TEAM, OWNER);
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('team.exists');
      expect((await teamOk(service, `${api}/profiles/${profile.id}`, { token })).name).toBe('kept across restarts');
      expect(await teamOk(service, `${api}/automation/globals/kept`, { token })).toMatchObject({
        value: 'still here',
        revision: 1,
      });
      const verify = await teamOk<{ ok: boolean; checked: number }>(service, `${api}/audit/verify`, { token });
      expect(verify.ok).toBe(true);
      const actions = (
        await teamOk<{ items: { action: string }[] }>(service, `${api}/audit?limit=100`, { token })
      ).items
        .map((e) => e.action)
        .reverse();
      // The object's start, the owner, the token, the profile, the global; the start after the restart; the read of the global.
      expect(actions).toEqual([
        'service.start',
        'members.write',
        'tokens.create',
        'profiles.create',
        'globals.write',
        'service.start',
        'globals.read',
      ]);
      expect(verify.checked).toBe(actions.length);
      const output = service.output();
      expect(output).not.toContain(service.operatorToken);
      expect(output).not.toContain(readSecret(service, 'key-wrap.key'));
    },
    2 * START_MS,
  );

  it('keeps every file and folder of its data root to its user: state, SQLite, secrets', () => {
    const { dataRoot } = service;
    const tree = readdirSync(dataRoot, { recursive: true }).map(String);
    // What there is to look at once a team has written: its SQLite files.
    expect(tree.some((path) => path.endsWith('.sqlite'))).toBe(true);
    expect(openToOthers(dataRoot)).toEqual([]);
  });
});

function readSecret(service: RunningTeamService, file: string): string {
  return readFileSync(join(service.dataRoot, file), 'utf8').trim();
}
