import { describe, expect, it } from 'vitest';
import { TEAM_HEAD_VALUE } from '../../src/shared/schemas/team';
import { teamOpenapiDocument } from '../../src/teams/openapi';
import { assertionFor, createTeam, teamCall } from './support';

type Operation = {
  operationId: string;
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
};

/** Every operation of a document: its method, its path with `{name}` parameters, the operation. */
const operationsOf = (doc: { paths: Record<string, Record<string, Operation>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

describe("GET /v1/openapi.json, the team service's document", () => {
  it('needs no token, and is the document src/teams/openapi.ts builds', async () => {
    const res = await teamCall('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-lpa-team-head')).toBeNull();
    expect(res.json).toEqual(teamOpenapiDocument());
    // The bytes of the answer are the built document's (no property dropped or reordered on the way).
    expect(res.text).toBe(JSON.stringify(teamOpenapiDocument()));
  });

  it('is behind the Host guard like every route of the service', async () => {
    const res = await teamCall('/v1/openapi.json', { headers: { host: 'evil.example' } });
    expect(res.status).toBe(421);
    expect(res.json.error.code).toBe('request.host_forbidden');
  });

  it('lists every answer the service gives each of its operations, and every operation is served', async () => {
    const doc = (await teamCall('/v1/openapi.json')).json;
    const { owner } = await createTeam('openapi-described');
    const assertion = await assertionFor(owner);
    for (const { method, path, op } of operationsOf(doc)) {
      const team = path.startsWith('/teams/');
      // Parameters that name nothing that exists: the owner's admin session gets past every check but
      // the route's own, so the answer is the route's (a 404 of an unknown id, a 400 or 415 of no
      // body), never `route.not_found`.
      const target = path
        .replace('{team_id}', 'openapi-described')
        .replace('{email}', 'nobody@openapi-described.example')
        .replace(/\{\w+\}/g, 'nothing-here');
      const res = await teamCall(target, { method, ...(team ? { assertion } : {}) });
      const where = `${method} ${target}: ${res.status} ${res.text.slice(0, 200)}`;
      expect(Object.keys(op.responses), where).toContain(String(res.status));
      if (res.status >= 400) {
        expect(res.json.error.code, where).not.toBe('route.not_found');
        expect(op.responses[String(res.status)]!.description, where).toContain(`\`${res.json.error.code}\``);
      }
      // A team's object answered, with its chain head, as the document says; the front's answers carry none.
      const head = res.headers.get('x-lpa-team-head');
      expect(head !== null, where).toBe(team);
      if (head !== null) expect(head, where).toMatch(TEAM_HEAD_VALUE);
      expect(op.responses[String(res.status)]!.headers?.['X-LPA-Team-Head'] !== undefined, where).toBe(team);
    }
  });

  it('lists 404 team.not_found, answered by the front without a chain head to an id of no team, on every team route', async () => {
    const doc = (await teamCall('/v1/openapi.json')).json;
    const profiles = operationsOf(doc).find((o) => o.path === '/teams/{team_id}/api/v1/profiles' && o.method === 'GET');
    expect(profiles!.op.responses['404']!.description).toContain('`team.not_found`');
    const res = await teamCall('/teams/Nobody-Made-This/api/v1/profiles', {
      assertion: await assertionFor('a@b.example'),
    });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('team.not_found');
    expect(res.headers.get('x-lpa-team-head')).toBeNull();
  });
});
