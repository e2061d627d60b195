import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../storage/flows/schema';
import { call, tokenWith } from './support/api';
import { createFlow, expectError } from './support/automation';
import { auditOf, tablesHolding } from './support/automation-store';

const FLOWS = '/api/v1/automation/flows';
const post = (body: unknown) => call(FLOWS, { method: 'POST', body });

describe('creating flows', () => {
  it('answers 201 with the whole flow; a protected value shows only that it is set', async () => {
    const before = Date.now();
    const res = await post({
      name: 'Login flow',
      group: 'shop',
      description: 'Signs in',
      is_template: true,
      steps: [
        { type: 'open_url', url: 'https://example.test' },
        { type: 'click', selector: '#go' },
      ],
      values: [
        { name: 'user', value: 'alice' },
        { name: 'password', value: 'FLOW-PROTECTED-9c1d', protected: true },
        { name: 'otp', protected: true },
        { name: 'note' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Login flow',
      group: 'shop',
      description: 'Signs in',
      is_template: true,
      dependencies: [],
      steps: [
        { type: 'open_url', url: 'https://example.test' },
        { type: 'click', selector: '#go' },
      ],
      values: [
        { name: 'user', value: 'alice', protected: false, value_set: true },
        { name: 'password', value: null, protected: true, value_set: true },
        { name: 'otp', value: null, protected: true, value_set: false },
        { name: 'note', value: null, protected: false, value_set: false },
      ],
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    expect(res.json.created_at).toBeGreaterThanOrEqual(before);
    expect(res.text).not.toContain('FLOW-PROTECTED-9c1d');
    const read = await call(`${FLOWS}/${res.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
    expect(await tablesHolding('FLOW-PROTECTED-9c1d')).toEqual([]);
    expect(await auditOf('flows.create', res.json.id)).toEqual([
      expect.objectContaining({
        result: 'ok',
        entity_type: 'flow',
        details: { name: 'Login flow', steps: 2, values: 4 },
      }),
    ]);
  });

  it('fills in the optional fields', async () => {
    const res = await post({ name: 'Bare', steps: [] });
    expect(res.json).toMatchObject({
      name: 'Bare',
      group: null,
      description: null,
      is_template: false,
      dependencies: [],
      steps: [],
      values: [],
    });
  });

  it.each([
    ['no name', { steps: [] }],
    ['an empty name', { name: '', steps: [] }],
    ['a name of 121 characters', { name: 'n'.repeat(121), steps: [] }],
    ['no steps', { name: 'x' }],
    ['a step that is not an object', { name: 'x', steps: ['click'] }],
    ['a string for is_template', { name: 'x', steps: [], is_template: 'true' }],
    ['a dependency listed twice', { name: 'x', steps: [], dependencies: ['a', 'a'] }],
    ['a dependency id of 65 characters', { name: 'x', steps: [], dependencies: ['d'.repeat(65)] }],
    ['two values of one name', { name: 'x', steps: [], values: [{ name: 'v' }, { name: 'v' }] }],
    ['a value that is not a string', { name: 'x', steps: [], values: [{ name: 'v', value: 5 }] }],
    ['an unknown field', { name: 'x', steps: [], owner: 'me' }],
    ['an unknown value field', { name: 'x', steps: [], values: [{ name: 'v', secret: true }] }],
    ['a step of an unknown type', { name: 'x', steps: [{ type: 'hover', selector: '#a' }] }],
    ['a step without its type', { name: 'x', steps: [{ selector: '#a' }] }],
    ['a click without its selector', { name: 'x', steps: [{ type: 'click' }] }],
    ['a step with a parameter it does not take', { name: 'x', steps: [{ type: 'close_tab', index: 1 }] }],
    ['a tab index that is not an integer', { name: 'x', steps: [{ type: 'switch_tab', index: '1' }] }],
    ['a wait of two forms', { name: 'x', steps: [{ type: 'wait', ms: 5, selector: '#a' }] }],
    ['a wait of no form', { name: 'x', steps: [{ type: 'wait' }] }],
    ['a random wait whose min is above its max', { name: 'x', steps: [{ type: 'wait', min_ms: 9, max_ms: 2 }] }],
    [
      'an extract into a global that is no global name',
      { name: 'x', steps: [{ type: 'extract', selector: '#a', global: '1x' }] },
    ],
    ['a fill_password without its account', { name: 'x', steps: [{ type: 'fill_password', selector: '#p' }] }],
  ])('refuses %s', async (_, body) => {
    expectError(await post(body), 400, 'request.invalid');
  });

  it('takes every type of the step vocabulary, `${name}` values in its strings', async () => {
    const steps = [
      { type: 'open_url', url: 'https://${host}/login' },
      { type: 'new_tab' },
      { type: 'new_tab', url: 'about:blank' },
      { type: 'switch_tab', index: 0 },
      { type: 'close_tab' },
      { type: 'click', selector: '#go' },
      { type: 'type', selector: '#user', text: '${user}' },
      { type: 'select', selector: 'select', value: 'b' },
      { type: 'press', key: 'Enter' },
      { type: 'scroll', y: 400 },
      { type: 'scroll', selector: '#footer' },
      { type: 'wait', ms: 10 },
      { type: 'wait', min_ms: 10, max_ms: 20 },
      { type: 'wait', selector: '#done', timeout_ms: 5000 },
      { type: 'extract', selector: '#balance', attribute: 'data-value', global: 'balance' },
      { type: 'screenshot', file: 'after-${user}.png' },
      { type: 'run_flow', flow_id: 'some-flow' },
      { type: 'fill_password', selector: '#password', profile_account_id: 'acct' },
      { type: 'fill_totp', selector: '#code', profile_account_id: 'acct' },
    ];
    const res = await post({ name: 'every step', steps });
    expect(res.status).toBe(201);
    expect(res.json.steps).toEqual(steps);
  });

  it('refuses dependencies on flows that do not exist, listing them', async () => {
    const real = await createFlow({ name: 'dep-real', steps: [] });
    const res = await post({ name: 'x', steps: [], dependencies: [real, 'ghost-1', 'ghost-2'] });
    expectError(res, 400, 'flows.unknown');
    expect(res.json.error.details).toEqual({ ids: ['ghost-1', 'ghost-2'] });
  });

  it('needs rpa:write to create and runtime:control to read', async () => {
    const reader = await tokenWith(['runtime:control']);
    const res = await call(FLOWS, { method: 'POST', token: reader.token, body: { name: 'x', steps: [] } });
    expectError(res, 403, 'auth.scope_missing');
    expect(res.json.error.details.missing).toEqual(['rpa:write']);
    expect((await call(FLOWS, { token: reader.token })).status).toBe(200);
    const nobody = await tokenWith([]);
    expect((await call(FLOWS, { token: nobody.token })).json.error.details.missing).toEqual(['runtime:control']);
  });
});

describe('listing, reading and deleting flows', () => {
  it('lists summaries without steps or values', async () => {
    const id = await createFlow({
      name: 'listed',
      steps: [
        { type: 'wait', ms: 1 },
        { type: 'wait', ms: 2 },
        { type: 'wait', ms: 3 },
      ],
      values: [{ name: 'k', value: 'LISTED-PROTECTED-1', protected: true }],
    });
    const res = await call(FLOWS);
    expect(res.status).toBe(200);
    expect(res.json.items.find((f: FlowSummary) => f.id === id)).toEqual({
      id,
      name: 'listed',
      group: null,
      description: null,
      is_template: false,
      dependencies: [],
      step_count: 3,
      value_count: 1,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    expect(res.text).not.toContain('LISTED-PROTECTED-1');
  });

  it('answers 404 for an unknown flow and 400 for an id of 65 characters', async () => {
    expectError(await call(`${FLOWS}/no-such-flow`), 404, 'resource.not_found');
    expectError(await call(`${FLOWS}/no-such-flow`, { method: 'DELETE' }), 404, 'resource.not_found');
    expectError(await call(`${FLOWS}/${'x'.repeat(65)}`), 400, 'request.invalid');
  });

  it('keeps a flow while another depends on it', async () => {
    const base = await createFlow({ name: 'base', steps: [] });
    const user = await createFlow({ name: 'user', steps: [], dependencies: [base] });
    expect((await call(`${FLOWS}/${user}`)).json.dependencies).toEqual([base]);
    const refused = await call(`${FLOWS}/${base}`, { method: 'DELETE' });
    expectError(refused, 409, 'flows.has_dependents');
    expect(refused.json.error.details).toEqual({ dependents: [user] });
    expect((await call(`${FLOWS}/${user}`, { method: 'DELETE' })).json).toEqual({ ok: true });
    expect((await call(`${FLOWS}/${base}`, { method: 'DELETE' })).json).toEqual({ ok: true });
    expectError(await call(`${FLOWS}/${base}`), 404, 'resource.not_found');
    expect(await auditOf('flows.delete', base)).toEqual([
      expect.objectContaining({ result: 'ok', entity_type: 'flow' }),
    ]);
  });
});
