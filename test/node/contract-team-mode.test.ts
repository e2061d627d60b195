/**
 * The contract suite against a machine in a team (docs/teams.md#a-machine-in-a-team): one
 * `npm run start:team`, one `npm start` joined to it by LPA_TEAM_URL + LPA_TEAM_TOKEN_FILE, and the
 * same cases as every runtime, over HTTP. Its `home: 'team'` routes are answered by the team, its
 * local routes by itself, and every answer keeps the local API's shapes and status codes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractValidator, contractSuite, declaredTeamHead, operations } from '../support/contract';
import { transportTo } from './contract-transport';
import { startService } from './service';
import { adminTeamToken, createTeam, startTeamService, teamOk, teamRequest } from './team-service';

/** A start of the team service bundles the Worker first: far more than the project's 30 s on a loaded machine. */
const START_MS = 120_000;
const TEAM = 'contract';
const OWNER = 'owner@contract.example';
/** A page allowed to call the machine. */
const APP_ORIGIN = 'http://app.contract.example';

/** The team with its owner's script token, and a machine joined to it with its document. */
async function joinedMachine() {
  const work = mkdtempSync(join(tmpdir(), 'lpa-contract-team-'));
  const team = await startTeamService(join(work, 'team'));
  try {
    const created = await createTeam(team, TEAM, OWNER);
    if (created.status !== 201)
      throw new Error(`the team was not created: ${created.status} ${JSON.stringify(created.json)}`);
    const ownerToken = (await adminTeamToken(team, TEAM, OWNER, 'owner script')).token;
    const tokenFile = join(work, 'machine.token');
    writeFileSync(tokenFile, `${(await adminTeamToken(team, TEAM, OWNER, 'machine')).token}\n`, { mode: 0o600 });
    const machine = await startService('workerd', join(work, 'machine'), {
      LPA_TEAM_URL: `http://127.0.0.1:${team.port}/teams/${TEAM}`,
      LPA_TEAM_TOKEN_FILE: tokenFile,
      LPA_ALLOWED_ORIGINS: APP_ORIGIN,
    });
    const transport = transportTo(machine);
    const served = await transport('/api/v1/openapi.json');
    if (served.status !== 200) {
      await machine.stop();
      throw new Error(`the machine served no document: ${served.status} ${served.text}`);
    }
    return { team, ownerToken, machine, transport, document: served.json };
  } catch (error) {
    await team.stop();
    throw error;
  }
}

// Started while the file is collected (the suite is built from the served document); a failure
// here stops what was started, since no afterAll runs for a file that fails to collect.
const { team, ownerToken, machine, transport, document } = await joinedMachine();
afterAll(async () => {
  await Promise.all([machine.stop(), team.stop()]);
}, START_MS);

contractSuite('the OpenAPI document of a machine in a team against that machine', document, transport, {
  teamMode: true,
});

describe('a machine in a team, beyond the table', () => {
  it("saw none of the suite's failed authentications: they are the machine's, and the team never denied or throttled the machine", async () => {
    const denials = async () =>
      (
        await teamOk<{ items: unknown[] }>(team, `/teams/${TEAM}/api/v1/audit?action=auth.denied&limit=1000`, {
          token: ownerToken,
        })
      ).items;
    expect(await denials()).toEqual([]);
    // The machine is still served: the team has not blocked the one address all its requests come from.
    expect((await transport('/api/v1/profiles?limit=1')).status).toBe(200);
    // A failed authentication that does reach the team is in its chain: the empty list above says something.
    expect((await teamRequest(team, `/teams/${TEAM}/api/v1/profiles`, { token: 'not-a-team-token' })).status).toBe(401);
    expect(await denials()).toHaveLength(1);
  });

  it("lets a page of an allowed origin read the team's head, as it reads the request id", async () => {
    const answer = await transport('/api/v1/profiles?limit=1', { headers: { origin: APP_ORIGIN } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    const exposed = answer.headers
      .get('access-control-expose-headers')!
      .split(',')
      .map((name) => name.trim());
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'x-lpa-team-head']));
    expect(answer.headers.get('x-lpa-team-head')).toMatch(/^\d+,[0-9a-f]{64}$/);
  });

  it("finds the team's chain to be the one the machine witnessed through the whole run", async () => {
    const verified = await transport('/api/v1/team/verify', { method: 'POST' });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ ok: true, finding: null });
    expect(verified.json.checked).toBeGreaterThan(0);
  });
});

describe('when the team does not answer', () => {
  // One operation of each team family, each with input that passes the local validation.
  const TEAM_CALLS: [string, string, unknown?][] = [
    ['GET /api/v1/version', '/api/v1/version'],
    ['GET /api/v1/profiles', '/api/v1/profiles?limit=1'],
    ['POST /api/v1/profiles', '/api/v1/profiles', { name: 'offline' }],
    ['GET /api/v1/profiles/{id}/accounts/{accountId}/password', '/api/v1/profiles/offline/accounts/offline/password'],
    [
      'PUT /api/v1/automation/globals/{name}',
      '/api/v1/automation/globals/offline',
      { value: 'v', expected_revision: 0 },
    ],
    ['DELETE /api/v1/automation/flows/{id}', '/api/v1/automation/flows/offline'],
    ['POST /api/v1/automation/shares/redeem', '/api/v1/automation/shares/redeem', { code: 'offline-share-code' }],
    ['GET /api/v1/audit/export', '/api/v1/audit/export?format=jsonl'],
    ['PUT /api/v1/settings/audit', '/api/v1/settings/audit', { retention_days: 1095 }],
  ];

  it(
    'answers 503 team.unreachable with Retry-After on team routes, as the document says, and keeps the local routes',
    async () => {
      await team.stop();
      const validator = new ContractValidator(document);
      const documented = operations(document);
      let unreachable = '';
      for (const [key, path, body] of TEAM_CALLS) {
        const method = key.split(' ')[0]!;
        const answer = await transport(path, { method, body });
        expect(answer.status, `${key}: ${answer.text}`).toBe(503);
        expect(answer.json.error.code).toBe('team.unreachable');
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(validator.check(documented.get(key)!, answer.status, answer.text), key).toEqual([]);
        unreachable = answer.text;
      }
      // Every team operation (those whose answers may carry the team's head) documents that same answer.
      const teamOperations = [...documented].filter(([, op]) => declaredTeamHead(op));
      expect(teamOperations.length).toBeGreaterThan(TEAM_CALLS.length);
      for (const [key, op] of teamOperations) expect(validator.check(op, 503, unreachable), key).toEqual([]);
      for (const path of ['/api/v1/system/status', '/api/v1/tokens', '/api/v1/automation/files'])
        expect((await transport(path)).status, path).toBe(200);
    },
    START_MS,
  );
});
