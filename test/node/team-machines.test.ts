/**
 * Two machines and one team, as people run them (docs/teams.md#a-machine-in-a-team): one
 * `npm run start:team`, two `npm start` services with data roots of their own joined to it (one by
 * LPA_TEAM_URL + LPA_TEAM_TOKEN_FILE, one by `lpa team join`), then the team going away and coming back.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startService, type RawResponse, type RunningService } from './service';
import { adminTeamToken, createTeam, startTeamService, teamOk, type RunningTeamService } from './team-service';

/** A start of the team service bundles the Worker first: far more than the project's 30 s on a loaded machine. */
const START_MS = 120_000;
const TEAM = 'two-machines';
const OWNER = 'owner@machines.example';

interface Machine {
  service: RunningService;
  machineId: string;
}

const work = mkdtempSync(join(tmpdir(), 'lpa-team-machines-'));
let team: RunningTeamService;
let teamUrl: string;
let ownerToken: string;
let a: Machine;
let b: Machine;

/** A request to a machine's local API with its admin token (or `token`). */
function call(
  machine: Machine,
  path: string,
  { method = 'GET', body, token }: { method?: string; body?: unknown; token?: string } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token ?? machine.service.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return raw(machine.service.port, path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** `lpa …` as a user runs it, on a data root. */
function lpa(args: string[], dataRoot: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(process.cwd(), 'bin/lpa.mjs'), ...args],
      { env: { ...process.env, LPA_DATA_ROOT: dataRoot } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The team's chain entries of one local request id (the owner's team token reads them). */
async function teamEntries(
  requestId: string,
): Promise<
  { action: string; request_id: string; details: { via?: { machine_id: string; local_token_id: string | null } } }[]
> {
  const page = await teamOk<{ items: any[] }>(team, `/teams/${TEAM}/api/v1/audit?limit=1000`, { token: ownerToken });
  return page.items.filter((entry) => entry.request_id === requestId);
}

const machineIdOf = (dataRoot: string) => readFileSync(join(dataRoot, 'machine-id'), 'utf8').trim();

beforeAll(async () => {
  team = await startTeamService(join(work, 'team'));
  teamUrl = `http://127.0.0.1:${team.port}/teams/${TEAM}`;
  expect((await createTeam(team, TEAM, OWNER)).status).toBe(201);
  ownerToken = (await adminTeamToken(team, TEAM, OWNER, 'owner script')).token;
  const tokenFiles = await Promise.all(
    ['machine a', 'machine b'].map(async (name) => {
      const file = join(work, `${name.replace(' ', '-')}.token`);
      writeFileSync(file, `${(await adminTeamToken(team, TEAM, OWNER, name)).token}\n`, { mode: 0o600 });
      return file;
    }),
  );
  // Machine a by the environment, machine b by `lpa team join` (its data root's team.json).
  const serviceA = await startService('workerd', join(work, 'a'), {
    LPA_TEAM_URL: teamUrl,
    LPA_TEAM_TOKEN_FILE: tokenFiles[0]!,
  });
  const rootB = join(work, 'b');
  const joined = await lpa(['team', 'join', teamUrl, '--token-file', tokenFiles[1]!, '--json'], rootB);
  expect(joined.code, joined.stderr).toBe(0);
  expect(JSON.parse(joined.stdout)).toMatchObject({ url: teamUrl, token_file: tokenFiles[1] });
  const serviceB = await startService('workerd', rootB);
  a = { service: serviceA, machineId: machineIdOf(serviceA.dataRoot) };
  b = { service: serviceB, machineId: machineIdOf(rootB) };
}, 3 * START_MS);

afterAll(async () => {
  await Promise.all([a?.service.stop(), b?.service.stop(), team?.stop()]);
}, START_MS);

describe('two machines joined to one team', () => {
  it('gives each machine an id of its own', () => {
    expect(a.machineId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.machineId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.machineId).not.toBe(b.machineId);
  });

  it("reads on one machine at once what the other wrote: a profile and a global, with the team chain's head", async () => {
    const created = await call(a, '/api/v1/profiles', { method: 'POST', body: { name: 'made on a' } });
    expect(created.status).toBe(201);
    expect(created.headers['x-lpa-team-head']).toMatch(/^\d+,[0-9a-f]{64}$/);
    const read = await call(b, `/api/v1/profiles/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json.name).toBe('made on a');

    expect(
      (
        await call(b, '/api/v1/automation/globals/seen_on_a', {
          method: 'PUT',
          body: { value: 'from b', expected_revision: 0 },
        })
      ).status,
    ).toBe(200);
    const global = await call(a, '/api/v1/automation/globals/seen_on_a');
    expect(global.status).toBe(200);
    expect(global.json).toMatchObject({ value: 'from b', revision: 1 });
  });

  it('lets exactly one of two machines racing on one revision win: one 200, one 409', async () => {
    expect(
      (
        await call(a, '/api/v1/automation/globals/raced', {
          method: 'PUT',
          body: { value: 'start', expected_revision: 0 },
        })
      ).status,
    ).toBe(200);
    const answers = await Promise.all(
      [a, b].map((machine, i) =>
        call(machine, '/api/v1/automation/globals/raced', {
          method: 'PUT',
          body: { value: `machine ${i}`, expected_revision: 1 },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const lost = answers.find((answer) => answer.status === 409)!;
    expect(lost.json.error).toMatchObject({ code: 'state.revision_conflict', details: { current_revision: 2 } });
    expect((await call(b, '/api/v1/automation/globals/raced')).json.revision).toBe(2);
  });

  it('redeems on one machine a share code created on the other', async () => {
    const flow = await call(a, '/api/v1/automation/flows', {
      method: 'POST',
      body: { name: 'shared flow', steps: [{ type: 'open_url', url: 'https://example.com' }] },
    });
    expect(flow.status).toBe(201);
    const share = await call(a, '/api/v1/automation/shares', {
      method: 'POST',
      body: { ids: [flow.json.id], name: 'to b', expires_in_minutes: 60, max_uses: 1 },
    });
    expect(share.status).toBe(200);
    const redeemed = await call(b, '/api/v1/automation/shares/redeem', {
      method: 'POST',
      body: { code: share.json.code },
    });
    expect(redeemed.status).toBe(200);
    expect(redeemed.json.items.map((item: { name: string }) => item.name)).toEqual(['shared flow']);
    const imported = await call(b, '/api/v1/automation/shares/import', {
      method: 'POST',
      body: { ticket: redeemed.json.ticket, ids: [flow.json.id] },
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  });

  it("records each write once in the team's chain, with the machine, the local token and the local request id", async () => {
    // On a, a token of a's own store (its id rides along); on b, b's bootstrap admin token (it has no id).
    const local = await call(a, '/api/v1/tokens', {
      method: 'POST',
      body: { name: 'globals script', scopes: ['runtime:control', 'secrets:read', 'rpa:write'] },
    });
    expect(local.status).toBe(201);
    for (const [machine, token, localTokenId] of [
      [a, local.json.token, local.json.id],
      [b, undefined, null],
    ] as const) {
      const write = await call(machine, `/api/v1/automation/globals/audited_${machine === a ? 'a' : 'b'}`, {
        method: 'PUT',
        token,
        body: { value: 'one', expected_revision: 0 },
      });
      expect(write.status).toBe(200);
      const entries = await teamEntries(write.headers['x-request-id'] as string);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.action).toBe('globals.write');
      expect(entries[0]!.details.via).toEqual({ machine_id: machine.machineId, local_token_id: localTokenId });
    }
  });

  it('gives a local token without profiles:read the local 403 in team mode, and never asks the team', async () => {
    const issued = await call(a, '/api/v1/tokens', {
      method: 'POST',
      body: { name: 'audit only', scopes: ['audit:read'] },
    });
    expect(issued.status).toBe(201);
    const denied = await call(a, '/api/v1/profiles', { token: issued.json.token });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('auth.scope_missing');
    expect(await teamEntries(denied.headers['x-request-id'] as string)).toEqual([]);
  });
});

describe("a machine whose team token is narrower than the caller's token", () => {
  it(
    "answers the team's refusal as team.scope_missing, naming the team token's missing scope, not the caller's",
    async () => {
      const narrow = await teamOk<{ token: string }>(team, `/teams/${TEAM}/api/v1/tokens`, {
        method: 'POST',
        token: ownerToken,
        body: { name: 'reading machine', scopes: ['profiles:read'] },
      });
      const tokenFile = join(work, 'narrow.token');
      writeFileSync(tokenFile, `${narrow.token}\n`, { mode: 0o600 });
      const c: Machine = {
        service: await startService('workerd', join(work, 'c'), {
          LPA_TEAM_URL: teamUrl,
          LPA_TEAM_TOKEN_FILE: tokenFile,
        }),
        machineId: '',
      };
      try {
        const profile = (await call(a, '/api/v1/profiles', { method: 'POST', body: { name: 'narrow link' } })).json;
        const account = (
          await call(a, `/api/v1/profiles/${profile.id}/accounts`, {
            method: 'POST',
            body: { platform_url: 'https://shop.example', password: 'narrow-pw' },
          })
        ).json;
        expect((await call(c, `/api/v1/profiles/${profile.id}`)).json.name).toBe('narrow link');
        // The machine's own admin token holds every scope here; the team refuses the machine's team token.
        const refused = await call(c, `/api/v1/profiles/${profile.id}/accounts/${account.id}/password`);
        expect(refused.status).toBe(403);
        expect(refused.json.error).toMatchObject({
          code: 'team.scope_missing',
          details: { missing: ['secrets:read'], team_request_id: expect.any(String) },
        });
        expect(refused.text).not.toContain('narrow-pw');
      } finally {
        await c.service.stop();
      }
    },
    START_MS,
  );
});

describe('when the team goes away and comes back', () => {
  const TEAM_ROUTES = ['/api/v1/profiles?limit=5', '/api/v1/automation/globals/seen_on_a'];
  const LOCAL_ROUTES = ['/api/v1/system/status', '/api/v1/system/logs', '/api/v1/tokens'];

  it(
    'answers 503 team.unreachable within 5 s on team routes, keeps local routes, writes nothing; then serves again without a restart',
    async () => {
      const { dataRoot, port } = team;
      await team.stop();

      for (const path of TEAM_ROUTES) {
        const started = performance.now();
        const answer = await call(a, path);
        const elapsed = performance.now() - started;
        expect(answer.status, path).toBe(503);
        expect(answer.json.error.code).toBe('team.unreachable');
        expect(answer.headers['retry-after']).toBe('5');
        // The host gives up on the team after 5 s at worst (a closed port fails at once); the rest is the local request.
        expect(elapsed, `${path} answered in ${Math.round(elapsed)} ms`).toBeLessThan(5_500);
      }
      const offlineWrite = await call(b, '/api/v1/automation/globals/written_offline', {
        method: 'PUT',
        body: { value: 'lost?', expected_revision: 0 },
      });
      expect(offlineWrite.status).toBe(503);
      for (const path of LOCAL_ROUTES) expect((await call(a, path)).status, path).toBe(200);

      team = await startTeamService(dataRoot, { port });
      for (const path of TEAM_ROUTES) expect((await call(a, path)).status, path).toBe(200);
      // Nothing was queued: the write the team never saw is not there, and sending it again applies it once.
      expect((await call(a, '/api/v1/automation/globals/written_offline')).status).toBe(404);
      const again = await call(b, '/api/v1/automation/globals/written_offline', {
        method: 'PUT',
        body: { value: 'sent again', expected_revision: 0 },
      });
      expect(again.status).toBe(200);
      expect(again.json.revision).toBe(1);
    },
    2 * START_MS,
  );

  it(
    "keeps the team's data out of the local store and records the forwarded writes in the local chain under the team's request id",
    async () => {
      // A team write from machine a, then machine a alone again: its own store and chain, read through its own API.
      const write = await call(a, '/api/v1/automation/globals/chained', {
        method: 'PUT',
        body: { value: 'x', expected_revision: 0 },
      });
      expect(write.status).toBe(200);
      const requestId = write.headers['x-request-id'] as string;
      const [teamEntry] = await teamEntries(requestId);
      expect(teamEntry).toBeDefined();

      const dataRoot = a.service.dataRoot;
      await a.service.stop();
      a.service = await startService('workerd', dataRoot);
      const globals = await call(a, '/api/v1/automation/globals');
      expect(globals.status).toBe(200);
      expect(globals.json.items).toEqual([]);
      const profiles = await call(a, '/api/v1/profiles');
      expect(profiles.json.items).toEqual([]);
      const local = await call(a, '/api/v1/audit?action=globals.write&limit=1000');
      const entry = local.json.items.find((item: { request_id: string }) => item.request_id === requestId);
      expect(entry).toMatchObject({ result: 'ok', details: { team: { status: 200 } } });
      expect(entry.details.team.head).toMatch(/^\d+,[0-9a-f]{64}$/);
    },
    START_MS,
  );
});
