import { describe, expect, it } from 'vitest';
import { call, tokenWith } from './support/api';
import { createFlow, expectError } from './support/automation';
import { createProfile } from './support/profiles';
import { sql } from './support/store';

/**
 * What a flow run refuses before anything starts (docs/automation.md#runs); the runs themselves, on
 * real browsers, are test/node/flow-runs.test.ts.
 */
const runOf = (flowId: string, body: unknown, token?: string) =>
  call(`/api/v1/automation/flows/${flowId}/runs`, { method: 'POST', body, token });

const newProfile = async () => (await createProfile({ name: `job-${crypto.randomUUID().slice(0, 8)}` })).id;

/** No job was recorded for the profile: nothing started. */
async function noJobFor(profileId: string) {
  expect(await sql('SELECT job_id FROM flow_job_profiles WHERE profile_id = ?', profileId)).toEqual([]);
  expect(await sql('SELECT id FROM runs WHERE profile_id = ?', profileId)).toEqual([]);
}

describe('running a flow: what is refused before anything starts', () => {
  it.each([
    ['no profile_ids', {}],
    ['no profiles', { profile_ids: [] }],
    ['101 profiles', { profile_ids: Array.from({ length: 101 }, (_, n) => `p${n}`) }],
    ['a profile twice', { profile_ids: ['a', 'a'] }],
    ['a value that is not a string', { profile_ids: ['a'], values: { n: 1 } }],
    ['a string for headless', { profile_ids: ['a'], headless: 'yes' }],
    ['an unknown field', { profile_ids: ['a'], parallel: 3 }],
  ])('refuses %s', async (_, body) => {
    const flow = await createFlow({ name: 'bodies', steps: [] });
    expectError(await runOf(flow, body), 400, 'request.invalid');
  });

  it('needs runtime:control and rpa:write', async () => {
    const flow = await createFlow({ name: 'scopes', steps: [] });
    const reader = await tokenWith(['runtime:control']);
    const res = await runOf(flow, { profile_ids: ['a'] }, reader.token);
    expectError(res, 403, 'auth.scope_missing');
    expect(res.json.error.details.missing).toEqual(['rpa:write']);
  });

  it('answers an unknown flow as not found, and an unknown profile too', async () => {
    expectError(await runOf('no-such-flow', { profile_ids: ['a'] }), 404, 'resource.not_found');
    const flow = await createFlow({ name: 'nobody', steps: [{ type: 'wait', ms: 1 }] });
    const res = await runOf(flow, { profile_ids: ['no-such-profile'] });
    expectError(res, 404, 'resource.not_found');
    expect(res.json.error.details).toEqual({ resource: 'profile', id: 'no-such-profile' });
  });

  it('lists every value nothing provides, in the flows it runs too; a value of the request, the flow or a global is enough', async () => {
    const profile = await newProfile();
    const inner = await createFlow({ name: 'inner', steps: [{ type: 'type', selector: '#a', text: '${inner_only}' }] });
    const outer = await createFlow({
      name: 'outer',
      dependencies: [inner],
      steps: [
        { type: 'open_url', url: '${url}' },
        { type: 'type', selector: '#q', text: '${secret} and ${unset} and ${url}' },
        { type: 'fill_totp', selector: '#c', profile_account_id: '${account}' },
      ],
      values: [
        { name: 'secret', value: 'S3CRET-VALUE', protected: true },
        { name: 'unset', protected: true },
      ],
    });
    const res = await runOf(outer, { profile_ids: [profile] });
    expectError(res, 400, 'flows.missing_values');
    expect(res.json.error.details.missing).toEqual([
      { flow_id: inner, name: 'inner_only' },
      { flow_id: outer, name: 'url' },
      { flow_id: outer, name: 'unset' },
      { flow_id: outer, name: 'account' },
    ]);
    await call('/api/v1/automation/globals/unset', { method: 'PUT', body: { value: 'g', expected_revision: 0 } });
    const fewer = await runOf(outer, { profile_ids: [profile], values: { url: 'about:blank', inner_only: 'x' } });
    expect(fewer.json.error.details.missing).toEqual([{ flow_id: outer, name: 'account' }]);
    expect(JSON.stringify(fewer.json)).not.toContain('S3CRET-VALUE');
    await noJobFor(profile);
  });

  it('refuses a cycle through run_flow, naming it', async () => {
    const profile = await newProfile();
    const self = await createFlow({ name: 'self', steps: [{ type: 'run_flow', flow_id: '${me}' }] });
    const res = await runOf(self, { profile_ids: [profile], values: { me: self } });
    expectError(res, 400, 'flows.dependency_cycle');
    expect(res.json.error.details).toEqual({ cycle: [self, self] });
    const unknown = await runOf(self, { profile_ids: [profile], values: { me: 'ghost' } });
    expectError(unknown, 400, 'flows.unknown');
    expect(unknown.json.error.details).toEqual({ ids: ['ghost'] });
    await noJobFor(profile);
  });

  it('reports a flow saved before the step vocabulary as not runnable, with the step and the reason', async () => {
    const profile = await newProfile();
    const old = await createFlow({
      name: 'old',
      steps: [
        { type: 'wait', ms: 1 },
        { type: 'wait', ms: 2 },
      ],
    });
    // As a store from before #32 holds it: any object was a step then.
    await sql(
      `UPDATE automation_chunks SET data = replace(data, '{"type":"wait","ms":2}', '{"type":"hover","target":"#a"}') WHERE owner = ?`,
      `flow:${old}`,
    );
    expect((await call(`/api/v1/automation/flows/${old}`)).json.steps[1]).toEqual({ type: 'hover', target: '#a' });
    const res = await runOf(old, { profile_ids: [profile] });
    expectError(res, 400, 'flows.not_runnable');
    expect(res.json.error.details).toMatchObject({ flow_id: old, step: 1, reason: expect.any(String) });
    await noJobFor(profile);
    const refusals = await sql<{ n: number }>(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'flow_runs.start' AND result = 'error' AND error_code = 'flows.not_runnable'",
    );
    expect(refusals[0]!.n).toBeGreaterThan(0);
  });

  it('answers unknown jobs as not found', async () => {
    expectError(await call('/api/v1/automation/runs/no-such-job'), 404, 'resource.not_found');
    expectError(
      await call('/api/v1/automation/runs/no-such-job/cancel', { method: 'POST' }),
      404,
      'resource.not_found',
    );
    expect((await call('/api/v1/automation/runs')).status).toBe(200);
  });
});
